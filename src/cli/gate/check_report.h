/* The findings of `mtlbx check`, gathered for one job (a file named, or
 * an archive or Mach-O host with its libraries) and printed sorted: by
 * library in the order they were found, then by offset (errors first,
 * then by message, so a listing is the same on every run), in one of
 * three formats:
 *   text    FILE:OFFSET: error|warning: message
 *   json    one JSON object a line: {"file", "offset", "severity", "message", "rule"}
 *   github  ::error file=FILE,title=mtlbx check (RULE)::FILE:OFFSET: message
 *           (GitHub Actions workflow commands, with their escaping)
 * Every byte from a file is escaped first (cli_escape_dup for text and
 * github, json_bytes_text_dup for json). */
#ifndef MTLBX_CHECK_REPORT_H
#define MTLBX_CHECK_REPORT_H

#include "gate/gate.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_GITHUB };

/* What a finding is about: the rule that made it (gate/gate.h). */
#define RULE_DIAGNOSTIC MBX_RULE_DIAGNOSTIC
#define RULE_OS MBX_RULE_OS
#define RULE_OS_DECLARED MBX_RULE_OS_DECLARED
#define RULE_EXPECT MBX_RULE_EXPECT

struct report_item {
    size_t file;               /* index into names: the order libraries were found */
    enum mtlbx_severity severity;
    uint64_t offset;
    char *message;
    const char *rule;
};

struct report {
    enum report_format format;
    char **names;
    size_t n_names, cap_names;
    struct report_item *v;
    size_t n, cap;
    bool out_of_memory;
    size_t findings;           /* printed so far */
};

/* The format of --json / --format FORMAT; false after a usage message. */
bool report_format_parse(const char *json_flag_value_or_null, bool json, enum report_format *out);
/* A file (library) the next findings are about; returns its index, or
 * SIZE_MAX when out of memory. */
size_t report_file(struct report *r, const char *name);
/* One finding (the message is copied). */
void report_add(struct report *r, size_t file, enum mtlbx_severity sev, uint64_t offset, const char *message,
                const char *rule);
/* Prints what was gathered, sorted, to out and forgets it. False when a
 * write failed or memory ran out (then nothing more is printed). */
bool report_flush(struct report *r, FILE *out);
void report_free(struct report *r);

#endif
