/* mtlbx_function_codes: a string key's values for a whole library as one
 * byte a function and the few distinct values they stand for. A binding
 * makes one object per distinct value instead of one per function: the
 * type and the versions of 200,000 functions are a handful of strings
 * (issue 44: Python's File.columns within 3x of `mtlbx ls`). */
#include "config.h"

#include "api/handle.h"

#include <errno.h>
#include <string.h>

/* Open addressing over twice the most values a code can name. */
#define CODES_SLOTS 512

static uint32_t text_hash(const char *s)
{
    uint32_t h = 2166136261u;                /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

int64_t mtlbx_function_codes(mtlbx *h, int lib, int key, uint8_t *out, const char **values, int max_values)
{
    struct api_library *al = api_library(h, lib);
    if (!al)
        return -1;
    size_t len;
    if (!mtlbx_function_column(h, lib, key, &len))
        return -1;
    int c = key == MTLBX_NAME ? COL_NAME : key == MTLBX_TYPE ? COL_TYPE : key == MTLBX_AIR_VERSION ? COL_AIR_VERSION
            : key == MTLBX_MSL_VERSION ? COL_MSL_VERSION : key == MTLBX_HASH ? COL_HASH : -1;
    if (c < 0) {
        /* The columns made a value at a time have no offsets to share. */
        api_set_error(h, EINVAL, -1, "mtlbx_function_codes: key %d has no codes (NAME, TYPE, AIR_VERSION, "
                      "MSL_VERSION or HASH)", key);
        return -1;
    }
    if (max_values < 0 || max_values > 256 || (al->n_functions && (!out || (max_values && !values)))) {
        api_set_error(h, EINVAL, -1, "mtlbx_function_codes: no room (out, values, 0 <= max_values <= 256)");
        return -1;
    }
    const struct api_column *col = &al->columns[c];
    int slot_code[CODES_SLOTS];
    memset(slot_code, -1, sizeof slot_code);
    int n = 0;
    int absent = -1;                         /* the code of "no value", once seen */
    for (size_t i = 0; i < al->n_functions; i++) {
        if (col->at[i] == API_ABSENT) {
            if (absent < 0) {
                if (n == max_values)
                    return n + 1;            /* too many: the caller reads the column */
                values[absent = n++] = NULL;
            }
            out[i] = (uint8_t)absent;
            continue;
        }
        const char *s = col->text + col->at[i];
        /* Most neighbours share their value: try the last one first. */
        if (i && out[i - 1] != absent && values[out[i - 1]] && strcmp(values[out[i - 1]], s) == 0) {
            out[i] = out[i - 1];
            continue;
        }
        uint32_t slot = text_hash(s) % CODES_SLOTS;
        while (slot_code[slot] >= 0 && strcmp(values[slot_code[slot]], s) != 0)
            slot = (slot + 1) % CODES_SLOTS;
        if (slot_code[slot] < 0) {
            if (n == max_values)
                return n + 1;
            values[n] = s;
            slot_code[slot] = n++;
        }
        out[i] = (uint8_t)slot_code[slot];
    }
    return n;
}
