/* dump --json --layout: a "layout" array streamed region by region
 * (CONTRACT.md "Every byte decoded"). */
#ifndef MTLBX_LAYOUT_JSON_H
#define MTLBX_LAYOUT_JSON_H

#include "json_stream.h"

#include <stdbool.h>

/* Writes "layout": [...] as the next member of the open object of `js`,
 * one region at a time: the regions are never held in memory. False when
 * the walk or the output failed. */
bool layout_json_stream(struct json_stream *js, mtlbx_file *f);

#endif
