/* See pack_select.h. */
#include "config.h"

#include "pack_select.h"
#include "safe_write.h"
#include "writer/writer.h"
#include "container/diagnostics.h"
#include "container/file.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static enum pack_select_status fail(struct pack_select *p, enum pack_select_status s, int64_t at, const char *why)
{
    p->err_offset = at;
    snprintf(p->err, sizeof p->err, "%s", why);
    return s;
}

enum pack_select_status pack_select_write(struct pack_select *p)
{
    p->size = 0;
    p->err_offset = -1;
    p->err[0] = '\0';
    mtlbx_writer *w = mbx_writer_new();
    if (!w)
        return fail(p, PACK_SELECT_INPUT, -1, "out of memory");
    int rc = mbx_writer_describe_tick(w, p->file, p->describe_flags, p->read_tick, p->tick_ctx);
    if (rc == MTLBX_WRITER_OK)
        rc = mbx_writer_select(w, p->keep);
    if (rc != MTLBX_WRITER_OK && p->read_tick && strcmp(mtlbx_writer_error_string(w), "stopped") == 0) {
        mtlbx_writer_free(w);
        return fail(p, PACK_SELECT_STOPPED, -1, "stopped");
    }
    if (rc != MTLBX_WRITER_OK) {
        enum pack_select_status s = fail(p, PACK_SELECT_INPUT, mbx_writer_error_offset(w), mtlbx_writer_error_string(w));
        mtlbx_writer_free(w);
        return s;
    }
    struct safe_write_guard input = { 0 };
    struct stat st;
    if (p->file_path && stat(p->file_path, &st) == 0)
        input = (struct safe_write_guard){ .has_input = true, .input_dev = (uint64_t)st.st_dev,
                                           .input_ino = (uint64_t)st.st_ino };
    struct safe_write_temp t;
    enum pack_select_status s = PACK_SELECT_OK;
    if (safe_write_begin(p->out, p->force, &input, &t, p->err, sizeof p->err) != 0) {
        s = PACK_SELECT_OUTPUT;
    } else if (mbx_writer_write_fd_tick(w, t.fd, p->tick, p->tick_ctx) != MTLBX_WRITER_OK) {
        safe_write_abort(&t);
        s = p->tick && strcmp(mtlbx_writer_error_string(w), "stopped") == 0
                ? fail(p, PACK_SELECT_STOPPED, -1, "stopped")
                : fail(p, PACK_SELECT_OUTPUT, -1, mtlbx_writer_error_string(w));
    } else if (mbx_file_changed(p->file) || mbx_file_out_of_memory(p->file, NULL)) {
        /* Bytes read from a file that changed under us, or a part the
         * library could not decode for want of memory: the copy is not
         * the file's, so it never takes OUT's place. */
        safe_write_abort(&t);
        s = fail(p, PACK_SELECT_CHANGED, -1, "the file changed or shrank while it was being read");
    } else {
        struct stat out;
        uint64_t size = fstat(t.fd, &out) == 0 ? (uint64_t)out.st_size : 0;
        if (safe_write_commit(&t, p->err, sizeof p->err) != 0)
            s = PACK_SELECT_OUTPUT;
        else
            p->size = size;
    }
    mtlbx_writer_free(w);
    return s;
}
