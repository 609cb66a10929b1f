/* See jsoncmp.h. */
#include "config.h"

#include "jsoncmp.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_error(const json_t *diags)
{
    size_t i;
    json_t *d;
    json_array_foreach(diags, i, d) {
        const char *sev = json_string_value(json_object_get(d, "severity"));
        if (sev && strcmp(sev, "error") == 0)
            return true;
    }
    return false;
}

/* Every key of `want` must be in `got` with an equal value. */
size_t json_contract_compare(const char *file, const char *path, const json_t *got, const json_t *want)
{
    char sub[1024];
    size_t bad = 0;
    if (json_is_object(want)) {
        if (!json_is_object(got)) {
            cr_log_error("%s: %s: expected an object", file, path);
            return 1;
        }
        const char *key;
        json_t *w;
        json_object_foreach((json_t *)want, key, w) {
            snprintf(sub, sizeof sub, "%s.%s", path, key);
            json_t *g = json_object_get(got, key);
            if (strcmp(key, "diagnostics") == 0) {
                if (!g || has_error(g) != has_error(w)) {
                    cr_log_error("%s: %s: an error is %s but the reference %s one", file, sub,
                                 g && has_error(g) ? "reported" : "not reported",
                                 has_error(w) ? "has" : "has no");
                    bad++;
                }
            } else if (!g) {
                cr_log_error("%s: %s is missing", file, sub);
                bad++;
            } else {
                bad += json_contract_compare(file, sub, g, w);
            }
        }
    } else if (json_is_array(want)) {
        if (!json_is_array(got) || json_array_size(got) != json_array_size(want)) {
            cr_log_error("%s: %s: expected an array of %zu", file, path, json_array_size(want));
            return 1;
        }
        for (size_t i = 0; i < json_array_size(want); i++) {
            snprintf(sub, sizeof sub, "%s[%zu]", path, i);
            bad += json_contract_compare(file, sub, json_array_get(got, i), json_array_get(want, i));
        }
    } else if (!json_equal((json_t *)got, (json_t *)want)) {
        char *g = json_dumps(got, JSON_ENCODE_ANY), *w = json_dumps(want, JSON_ENCODE_ANY);
        cr_log_error("%s: %s: got %s, expected %s", file, path, g, w);
        free(g);
        free(w);
        bad = 1;
    }
    return bad;
}

