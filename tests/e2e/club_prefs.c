/*
 * club_prefs.c - a registered player's preferences kept with the account
 * (issue 24 point 6, docs/protocol.md "preferences"): saved by one
 * connection, sent after the welcome of the next one (a sign-in with the
 * password, a token, after a restart), and to the account's connection
 * after each save; a guest refused with a sentence; bad values refused with
 * nothing changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "club_play.h"

#define ADA_PASSWORD "ada's long password"

/* Whether a preferences message holds exactly the fields of want (a JSON
 * text). */
static bool prefs_are(const json_t *msg, const char *want)
{
    json_t *w = json_loads(want, 0, NULL);
    bool same = msg && w && json_equal(json_object_get(msg, "prefs"), w);
    if (!same) {
        char *got = msg ? json_dumps(msg, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
        e2e_note("preferences: wanted %s, got %s", want, got ? got : "nothing");
        free(got);
    }
    json_decref(w);
    return same;
}

/* Sends a preferences message as text and waits for its error. */
static void refused(e2e_client *c, const char *text, const char *code, const char *words)
{
    e2e_send_text(c, text);
    json_t *e = e2e_expect_error(c, code, "preferences", 3000);
    CHECK(e != NULL, "%s is refused with %s", text, code);
    if (e && words)
        CHECK(strstr(cp_text(e), words) != NULL, "the refusal says \"%s\": %s", words, cp_text(e));
    json_decref(e);
}

void club_prefs(void)
{
    e2e_server srv;
    e2e_server_start(&srv, "prefs.db");

    /* Ada signs up: no preferences are kept yet, so none come. */
    e2e_client *a = e2e_client_new("ada", srv.port);
    json_t *prefs = NULL;
    json_t *w = cp_sign(a, "Ada", ADA_PASSWORD, true, &prefs);
    REQUIRE(w && strcmp(cp_code(w), "welcome") == 0, "Ada signs up (got %s: %s)", cp_code(w),
            cp_text(w));
    CHECK(prefs == NULL, "a new account has no preferences to send");
    json_decref(w);
    json_decref(prefs);

    /* A guest is refused with a sentence that says where they are kept. */
    e2e_client *g = e2e_client_new("guest", srv.port);
    e2e_hello(g, "Gus");
    refused(g, "{\"type\": \"preferences\", \"prefs\": {\"card_size\": \"large\"}}",
            "not_registered", "registered players");
    refused(g, "{\"type\": \"preferences\", \"prefs\": {}}", "not_registered", "this browser");

    /* Ada saves four of them: the answer carries the id and what is kept. */
    e2e_send_text(a, "{\"type\": \"preferences\", \"id\": 41, \"prefs\": {\"table_colour\": "
                     "\"#224466\", \"card_spacing\": 22, \"card_size\": \"large\", "
                     "\"four_colour\": true}}");
    json_t *p = e2e_expect(a, "preferences", 3000);
    CHECK(p && json_integer_value(json_object_get(p, "id")) == 41,
          "the save is answered with preferences and its id");
    CHECK(prefs_are(p, "{\"table_colour\": \"#224466\", \"card_spacing\": 22, \"card_size\": "
                       "\"large\", \"four_colour\": true}"),
          "the answer holds the four preferences saved");
    json_decref(p);

    /* Bad values and unknown fields are refused, and nothing changes. */
    refused(a, "{\"type\": \"preferences\", \"prefs\": {\"table_colour\": \"red\"}}", "bad_value",
            "#rrggbb");
    refused(a, "{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": 80}}", "bad_value",
            "from 10 to 60");
    refused(a, "{\"type\": \"preferences\", \"prefs\": {\"card_size\": \"huge\"}}", "bad_value",
            "\"small\"");
    refused(a, "{\"type\": \"preferences\", \"prefs\": {\"trick_pause\": 9000}}", "bad_value",
            "from 0 to 5000");
    refused(a, "{\"type\": \"preferences\", \"prefs\": {\"four_colour\": \"yes\"}}", "bad_field",
            "true or false");
    refused(a, "{\"type\": \"preferences\", \"prefs\": {\"card_spacing\": 30, \"font\": \"big\"}}",
            "bad_field", "\"font\"");
    refused(a,
            "{\"type\": \"preferences\", \"prefs\": {\"card_size\": \"small\"}, \"password\": "
            "\"" ADA_PASSWORD "\"}",
            "bad_field", NULL);
    refused(a, "{\"type\": \"preferences\"}", "bad_field", "\"prefs\"");
    e2e_pump(200);
    CHECK(e2e_peek(a, "preferences") == NULL, "no refused save is answered with preferences");

    /* A second connection of the account, signed in with the password,
     * gets them after its welcome; the first hears bye replaced. */
    e2e_client *b = e2e_client_new("ada-2", srv.port);
    w = cp_sign(b, "ada", ADA_PASSWORD, false, &prefs);
    CHECK(w && strcmp(cp_code(w), "welcome") == 0, "Ada signs in again (got %s)", cp_code(w));
    CHECK(prefs_are(prefs, "{\"table_colour\": \"#224466\", \"card_spacing\": 22, \"card_size\": "
                           "\"large\", \"four_colour\": true}"),
          "the second connection gets the kept preferences after its welcome, unchanged by "
          "the refused saves");
    json_decref(w);
    json_decref(prefs);
    json_t *bye = e2e_expect(a, "bye", 3000);
    CHECK(bye && strcmp(json_string_value(json_object_get(bye, "reason")), "replaced") == 0,
          "the first connection is replaced");
    json_decref(bye);
    char token[80];
    snprintf(token, sizeof token, "%s", b->token);

    /* The second connection saves two more and changes one: it hears the
     * whole of what is kept, the first (gone) nothing. */
    e2e_send_text(b, "{\"type\": \"preferences\", \"prefs\": {\"sound\": true, \"trick_pause\": "
                     "800, \"card_size\": \"small\"}}");
    p = e2e_expect(b, "preferences", 3000);
    CHECK(prefs_are(p, "{\"table_colour\": \"#224466\", \"card_spacing\": 22, \"card_size\": "
                       "\"small\", \"four_colour\": true, \"sound\": true, \"trick_pause\": 800}"),
          "the account's connection hears the save: the fields sent over the kept ones");
    CHECK(p && json_object_get(p, "id") == NULL, "a save without an id is answered without one");
    json_decref(p);
    CHECK(e2e_peek(a, "preferences") == NULL, "the replaced connection hears nothing more");

    /* The guest never hears another player's preferences. */
    CHECK(e2e_peek(g, "preferences") == NULL, "the guest hears nobody's preferences");

    /* A new connection with the token, and another after a restart. */
    e2e_client_drop(b);
    e2e_client *c = e2e_client_new("ada-3", srv.port);
    w = cp_token(c, token, &prefs);
    CHECK(w && strcmp(cp_code(w), "welcome") == 0, "the token signs Ada in (got %s)", cp_code(w));
    CHECK(prefs_are(prefs, "{\"table_colour\": \"#224466\", \"card_spacing\": 22, \"card_size\": "
                           "\"small\", \"four_colour\": true, \"sound\": true, \"trick_pause\": "
                           "800}"),
          "a connection signed in with the token gets them too");
    json_decref(w);
    json_decref(prefs);
    CHECK(e2e_server_stop(&srv) == 0, "the server stops");
    e2e_server_start(&srv, "prefs.db");
    e2e_client *d = e2e_client_new("ada-4", srv.port);
    w = cp_sign(d, "Ada", ADA_PASSWORD, false, &prefs);
    CHECK(w && strcmp(cp_code(w), "welcome") == 0, "Ada signs in after the restart");
    CHECK(prefs_are(prefs, "{\"table_colour\": \"#224466\", \"card_spacing\": 22, \"card_size\": "
                           "\"small\", \"four_colour\": true, \"sound\": true, \"trick_pause\": "
                           "800}"),
          "the preferences outlive a restart");
    json_decref(w);
    json_decref(prefs);
    /* A guest's hello gets no preferences. */
    e2e_client *g2 = e2e_client_new("guest-2", srv.port);
    e2e_hello(g2, "Gus Two");
    e2e_pump(200);
    CHECK(e2e_peek(g2, "preferences") == NULL, "a guest's welcome comes without preferences");
    CHECK(e2e_server_stop(&srv) == 0, "the server stops cleanly");

    /* The password is nowhere in the server's log. */
    FILE *f = fopen(srv.err, "r");
    bool seen = false;
    if (f) {
        char line[4096];
        while (fgets(line, sizeof line, f))
            seen = seen || strstr(line, ADA_PASSWORD) != NULL;
        fclose(f);
    }
    CHECK(!seen, "the password is not in the server's log");
    e2e_client_free(a);
    e2e_client_free(c);
    e2e_client_free(d);
    e2e_client_free(g);
    e2e_client_free(g2);
}
