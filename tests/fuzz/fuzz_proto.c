/*
 * fuzz_proto.c - libFuzzer target for the protocol codec.  Any bytes must be
 * either refused with an error that becomes valid JSON, or decoded into a
 * message whose action resolves under the uk and fife rules and goes
 * through JSON and back unchanged.  The same bytes, read as JSON, must be
 * refused or accepted as a view (or a view message) that the engine can
 * list legal actions for, and that goes through JSON and back unchanged.
 * A refusal never quotes a password field (of 4 bytes or more, below which
 * any text holds it by chance).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static barbu_rules rules[3];
static bool ready;

static void setup(void)
{
    static const char *const names[3] = {"uk", "fife", "chinese"};
    for (int i = 0; i < 3; i++)
        if (barbu_rules_preset(&rules[i], names[i]) != 0)
            abort();
    ready = true;
}

/* Writes JSON out and checks it is text. */
static void dump(json_t *j)
{
    if (j == NULL)
        abort();
    size_t len;
    char *text = proto_dump(j, &len);
    if (text == NULL || strlen(text) != len)
        abort();
    free(text);
    json_decref(j);
}

/* An action goes out as JSON, comes back as a client would send it, and is
 * the same action. */
static void action_round_trip(const barbu_rules *r, const barbu_action *a)
{
    json_t *j = proto_action_json(r, a, true);
    if (j == NULL)
        abort();
    json_object_del(j, "seat");
    json_t *m = json_pack("{s:s, s:o}", "type", "act", "action", j);
    size_t len;
    char *text = proto_dump(m, &len);
    proto_msg again;
    proto_error err;
    barbu_action back;
    if (text == NULL || proto_decode(text, len, &again, &err) != 0 ||
        proto_action_resolve(&again.action, r, a->seat, &back, &err) != 0 ||
        memcmp(&back, a, sizeof back) != 0)
        abort();
    free(text);
    json_decref(m);
    dump(proto_action_json(r, a, false));
}

/* How often needle's bytes occur in data. */
static int occurrences(const uint8_t *data, size_t size, const char *needle)
{
    size_t n = strlen(needle);
    int count = 0;
    for (size_t i = 0; i + n <= size; i++)
        count += memcmp(data + i, needle, n) == 0;
    return count;
}

/* Aborts when the refusal's text holds a password field of the message
 * (one whose bytes appear nowhere else in it: the text may rightly quote
 * a type or a field's name that happens to hold them). */
static void no_password_quoted(const uint8_t *data, size_t size, const proto_error *err)
{
    json_t *o = json_loadb((const char *)data, size, JSON_DISABLE_EOF_CHECK, NULL);
    static const char *const FIELDS[] = {"password", "new_password"};
    for (int i = 0; o && json_is_object(o) && i < 2; i++) {
        const char *pw = json_string_value(json_object_get(o, FIELDS[i]));
        if (pw && strlen(pw) >= 4 && occurrences(data, size, pw) == 1 && strstr(err->text, pw))
            abort();
    }
    json_decref(o);
}

static void decode(const uint8_t *data, size_t size)
{
    proto_msg msg;
    proto_error err;
    if (proto_decode((const char *)data, size, &msg, &err) != 0) {
        if (err.code == NULL || err.text[0] == '\0')
            abort();
        no_password_quoted(data, size, &err);
        dump(proto_error_json(&err));
        return;
    }
    if (msg.type >= PROTO_N_TYPES || strlen(proto_type_name(msg.type)) == 0)
        abort();
    if (msg.type != PROTO_ACT)
        return;
    for (int i = 0; i < 2; i++) {
        barbu_action a;
        if (proto_action_resolve(&msg.action, &rules[i], 2, &a, &err) == 0)
            action_round_trip(&rules[i], &a);
        else
            dump(proto_error_json(&err));
    }
}

static void view(const uint8_t *data, size_t size)
{
    json_error_t jerr;
    json_t *j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
    if (j == NULL)
        return;
    json_t *v = json_is_object(j) && json_is_object(json_object_get(j, "view"))
                    ? json_object_get(j, "view")
                    : j;
    barbu_action *list = malloc(PROTO_MAX_LEGAL * sizeof *list);
    if (list == NULL)
        abort();
    for (int i = 0; i < 3; i++) {
        barbu_view got, again;
        proto_error err;
        if (proto_view_parse(v, &rules[i], &got, &err) != 0) {
            if (err.code == NULL || err.text[0] == '\0')
                abort();
            continue;
        }
        int n = barbu_view_legal(&got, list, PROTO_MAX_LEGAL);
        for (int k = 0; k < n && k < PROTO_MAX_LEGAL && k < 64; k++) {
            barbu_view_check(&got, &list[k]);
            action_round_trip(&rules[i], &list[k]);
        }
        json_t *legal = proto_legal_json(&got);
        json_decref(legal);
        json_t *out = proto_view_json(&got);
        if (out == NULL || proto_view_parse(out, &rules[i], &again, &err) != 0 ||
            memcmp(&got, &again, sizeof got) != 0)
            abort();
        dump(out);
    }
    free(list);
    json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        setup();
    decode(data, size);
    view(data, size);
    return 0;
}
