/*
 * fuzz_record.c - libFuzzer target for the record reader: any bytes must be
 * either refused with a diagnostic or read into a record that replays,
 * writes and reads back without crashing, leaking or disagreeing, and
 * that barbu verify's strict replay answers without crashing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "barbu/barbu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    barbu_record *rec;
    barbu_diag diag = {0};
    if (barbu_record_read((const char *)data, size, &rec, &diag) != 0) {
        if (rec != NULL || diag.msg[0] == '\0')
            abort(); /* a refusal always says why and returns nothing */
        return 0;
    }
    barbu_state state;
    /* barbu verify's strict replay: the same record, checked against its
     * key or seed; any answer but a crash, and a refusal says why. */
    barbu_diag strict = {0};
    if (barbu_record_verify(rec, &state, NULL, NULL, &strict) != 0 && strict.msg[0] == '\0')
        abort();
    int err = barbu_record_replay(rec, &state, NULL, NULL, &diag);
    if (err == 0) {
        /* A record that replays must write, and read back to the same text. */
        char *text, *again;
        size_t len, len2;
        if (barbu_record_write(rec, &text, &len, &diag) != 0)
            abort();
        barbu_record *back;
        if (barbu_record_read(text, len, &back, &diag) != 0)
            abort();
        if (barbu_record_write(back, &again, &len2, &diag) != 0)
            abort();
        if (len != len2 || memcmp(text, again, len) != 0)
            abort();
        free(text);
        free(again);
        barbu_record_free(back);
    } else if (diag.msg[0] == '\0') {
        abort();
    }
    barbu_record_free(rec);
    return 0;
}
