/*
 * The two steps every JSON builder of the club takes: setting a key of an
 * object and appending to an array, the value built in place.  A failure
 * (out of memory, where jansson answers NULL or -1) clears *ok instead of
 * being checked at each field, so that the builders read as lists of
 * fields and look at *ok once at the end.  Each call takes the new value's
 * reference, as json_object_set_new and json_array_append_new do.
 */
#ifndef BARBU_CLUB_JSON_BUILD_H
#define BARBU_CLUB_JSON_BUILD_H

#include <jansson.h>
#include <stdbool.h>

static inline void json_put(bool *ok, json_t *obj, const char *key, json_t *value)
{
    if (value == NULL || json_object_set_new(obj, key, value) != 0)
        *ok = false;
}

static inline void json_append(bool *ok, json_t *array, json_t *value)
{
    if (value == NULL || json_array_append_new(array, value) != 0)
        *ok = false;
}

#endif
