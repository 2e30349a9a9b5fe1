/*
 * evening_refusals.c - every refusal a person can meet is a full sentence
 * that says what to do next (issue 22).  The harness checks the text of
 * every error any e2e test receives (e2e_refusal_check); this scenario
 * provokes one of each kind the server has, from the hello to an illegal
 * card, and checks each code and text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evening.h"

/* Sends a raw message and checks the refusal: its code, a sentence, and
 * (when want is not NULL) a phrase that says what to do. */
static void refused(e2e_client *c, const char *text, const char *code, const char *want)
{
    e2e_send_text(c, text);
    json_t *e = e2e_expect(c, "error", 3000);
    const char *got = e ? json_string_value(json_object_get(e, "code")) : NULL;
    const char *why = e ? json_string_value(json_object_get(e, "text")) : NULL;
    CHECK(got && strcmp(got, code) == 0, "%.60s: refused with %s (got %s: %s)", text, code,
          got ? got : "nothing", why ? why : "");
    CHECK(e2e_refusal_sentence(why), "%s: a sentence: %s", code, why ? why : "(none)");
    if (want)
        CHECK(why && strstr(why, want), "%s: says what to do (\"%s\"): %s", code, want,
              why ? why : "(none)");
    json_decref(e);
}

void evening_refusals(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "refusals.db");
    int before = e2e_refusals;
    char m[400];

    /* The hello. */
    e2e_client *x = e2e_client_new("ref-x", srv.port);
    refused(x, "{\"type\":\"tables\"}", "hello_first", "say hello");
    refused(x, "{\"type\":\"hello\",\"version\":2,\"name\":\"ref-x\"}", "version", "version 1");
    refused(x, "{\"type\":\"hello\",\"version\":1,\"name\":\"a  b\"}", "bad_name", "choose one");
    refused(x, "{\"type\":\"hello\",\"version\":1}", "bad_field", "name");
    snprintf(m, sizeof m, "{\"type\":\"hello\",\"version\":1,\"token\":\"%064d\"}", 0);
    refused(x, m, "bad_token", "say hello with a name");
    e2e_client *a = e2e_client_new("ref-a", srv.port);
    e2e_hello(a, "ref-a");
    refused(x, "{\"type\":\"hello\",\"version\":1,\"name\":\"ref-a\"}", "name_taken",
            "choose another name");
    refused(a, "{\"type\":\"hello\",\"version\":1,\"name\":\"ref-a\"}", "hello_twice", NULL);

    /* The message itself. */
    refused(a, "not json", "bad_json", "send a JSON object");
    refused(a, "{\"type\":\"dance\"}", "bad_type", NULL);
    refused(a, "{\"type\":\"tables\",\"colour\":1}", "bad_field", "leave it out");
    refused(a, "{\"type\":\"create\",\"rules\":\"nope\"}", "bad_rules",
            "choose one of the presets");
    refused(a, "{\"type\":\"create\",\"rules\":\"uk\",\"house\":\"frobnicate = 3\\n\"}",
            "bad_rules", "correct them");
    refused(a, "{\"type\":\"create\",\"rules\":\"uk\",\"level\":\"genius\"}", "bad_value",
            "choose easy");
    refused(a, "{\"type\":\"create\",\"rules\":\"uk\",\"grace\":99999}", "bad_value",
            "choose a value");
    refused(a, "{\"type\":\"create\",\"rules\":\"uk\",\"kibitz\":\"some\"}", "bad_value",
            "choose \"none\"");
    refused(a, "{\"type\":\"create\",\"rules\":\"uk\",\"sit\":\"N\",\"bots\":[\"N\"]}", "bad_seat",
            "sit at another seat");
    refused(a, "{\"type\":\"create\",\"rules\":\"uk\",\"clock\":3}", "bad_value", "0 for no clock");
    refused(a, "{\"type\":\"chat\",\"text\":\"   \"}", "bad_text", "write something");

    /* Tables and seats. */
    refused(a, "{\"type\":\"leave\"}", "not_at_table", NULL);
    refused(a, "{\"type\":\"sit\",\"table\":999,\"seat\":\"N\"}", "no_table", "lobby");
    refused(a, "{\"type\":\"score\"}", "no_table", "name the table");
    refused(a, "{\"type\":\"record\",\"table\":999}", "no_table", "lobby");
    refused(a, "{\"type\":\"bot\",\"seat\":\"E\"}", "not_seated", "sit first");
    refused(a, "{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}", "not_seated", "sit");
    int closed = e2e_create(a, "uk", json_pack("{s:s, s:s}", "sit", "N", "kibitz", "none"));
    json_decref(e2e_expect(a, "table", 5000));
    e2e_client *b = e2e_client_new_from("ref-b", srv.port, "127.0.0.3");
    e2e_hello(b, "ref-b");
    snprintf(m, sizeof m, "{\"type\":\"sit\",\"table\":%d,\"seat\":\"N\"}", closed);
    refused(b, m, "seat_taken", "choose a free seat");
    snprintf(m, sizeof m, "{\"type\":\"kibitz\",\"table\":%d,\"seat\":\"N\"}", closed);
    refused(b, m, "kibitz_refused", "watch another table");
    refused(a, "{\"type\":\"create\",\"rules\":\"uk\"}", "busy", "leave it first");
    refused(a, "{\"type\":\"bot\",\"seat\":\"N\"}", "bad_seat", NULL);
    refused(a, "{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}", "not_started",
            "call computer players");
    snprintf(m, sizeof m, "{\"type\":\"sit\",\"table\":%d,\"seat\":\"E\"}", closed);
    refused(a, m, "busy", "leave it first");
    e2e_sit(b, closed, 1);
    refused(a, "{\"type\":\"bot\",\"seat\":\"E\"}", "seat_taken", "empty seat");

    /* The game: N and E are people, S and W computer players. */
    refused(a, "{\"type\":\"bot\",\"seat\":\"S\",\"level\":\"genius\"}", "bad_value",
            "choose easy");
    e2e_send(a, json_pack("{s:s, s:s, s:s}", "type", "bot", "seat", "S", "level", "easy"));
    e2e_send(a, json_pack("{s:s, s:s, s:s}", "type", "bot", "seat", "W", "level", "easy"));
    e2e_client *mover = NULL, *other = NULL;
    for (long end = e2e_now_ms() + 10000; e2e_now_ms() < end && mover == NULL;) {
        e2e_pump(20);
        if (e2e_to_move(a))
            mover = a, other = b;
        else if (e2e_to_move(b))
            mover = b, other = a;
    }
    REQUIRE(mover != NULL, "a person is to move");
    refused(other, "{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}", "not_your_turn",
            "Wait for your turn");
    snprintf(m, sizeof m, "{\"type\":\"act\",\"action\":{\"type\":\"pass\"},\"at\":%ld}",
             mover->at + 5);
    refused(mover, m, "stale", "choose anew");
    refused(mover, "{\"type\":\"act\",\"action\":{\"type\":\"pass\",\"seat\":\"S\"}}", "bad_seat",
            "your own seat");
    /* The engine's reason, made a sentence. */
    refused(mover, "{\"type\":\"act\",\"action\":{\"type\":\"cut\"}}", "illegal", NULL);
    refused(mover, "{\"type\":\"act\",\"action\":{\"type\":\"declare\",\"contracts\":[\"nope\"]}}",
            "bad_value", "choose a contract");
    /* A player away: the table pauses, and the others are told to wait. */
    e2e_client_drop(other);
    e2e_pump(300);
    refused(mover, "{\"type\":\"act\",\"action\":{\"type\":\"pass\"}}", "paused", "wait");
    snprintf(m, sizeof m, "{\"type\":\"bot\",\"seat\":\"%c\"}", "NESW"[other->seat]);
    refused(mover, m, "wait", "once that time is over");

    CHECK(e2e_refusals - before >= 35, "%d refusals were checked", e2e_refusals - before);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");
    e2e_client_free(x);
    e2e_client_free(a);
    e2e_client_free(b);
}
