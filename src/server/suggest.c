/*
 * suggest.c - the suggest command: the rows the easy computer player would
 * set for the sender's Chinese Poker hand, as barbu play's 'g' key shows
 * them.  It works from the seat's own view, so it can only use what that
 * seat may know, and plays nothing.
 *
 * It runs on the event loop: the easy player's arrangement is a fixed
 * search over the ways to split 13 cards (src/ai/arrange.c): over 1200
 * hands it took 0.45 ms of CPU on average and 1.3 ms at most, so it needs
 * no worker thread.
 */
#include <stdio.h>

#include "internal.h"

void srv_cmd_suggest(srv_conn *c, const proto_msg *msg)
{
    srv_session *s = c->session;
    srv_table *t = s->table;
    if (t == NULL || s->seat < 0 || t->seats[s->seat].person != s || t->seats[s->seat].bot) {
        srv_error(c, msg, "not_seated",
                  "Only a seated player gets a suggestion: sit at a Chinese Poker table first.");
        return;
    }
    int seat = s->seat;
    if (!t->started) {
        srv_error(c, msg, "not_started",
                  "The game has not started: the suggestion comes once the cards are dealt.");
        return;
    }
    if (barbu_over(&t->state)) {
        srv_error(c, msg, "over", "The game is over, so there is nothing left to arrange.");
        return;
    }
    const barbu_table *bt = &t->state.t;
    if (bt->phase != BARBU_PHASE_ARRANGE) {
        srv_error(c, msg, "bad_value",
                  "Suggestions are given for Chinese Poker rows only: ask while you set your "
                  "rows.");
        return;
    }
    if (bt->arranged & (1u << seat)) {
        srv_error(c, msg, "bad_value",
                  "Suggestions are given for Chinese Poker rows only, and yours are set: wait "
                  "for the showdown.");
        return;
    }
    /* The seat's own view, as if it were to move (the rows are set in
     * turn, but a player may plan theirs while waiting): the easy player
     * sees the hand and the contract, nothing else. */
    barbu_view view;
    barbu_view_of(&t->state, seat, &view);
    view.t.to_move = (int8_t)seat;
    /* Never the table's seed: it deals every hand. */
    uint64_t bot_seed = 0;
    srv_random(&bot_seed, sizeof bot_seed);
    barbu_bot *bot = barbu_bot_new("heuristic", bot_seed);
    if (bot == NULL) {
        srv_error(c, msg, "server",
                  "No suggestion now (the server is short of memory): try again.");
        return;
    }
    barbu_action a;
    int err = barbu_bot_choose(bot, &view, &a);
    barbu_bot_free(bot);
    barbu_cards hand = view.hand[seat];
    if (err == 0 && (a.type != BARBU_ACT_ARRANGE ||
                     barbu_arrange_check(hand, a.cards, a.middle, false, NULL, 0) != 0))
        err = BARBU_EARRANGE;
    if (err != 0) {
        srv_error(c, msg, "server", "No suggestion could be made (%s): set your rows yourself.",
                  barbu_strerror(err));
        return;
    }
    a.seat = (int8_t)seat;
    json_t *reply =
        json_pack("{s:s, s:I, s:i, s:o*}", "type", "suggestion", "table", (json_int_t)t->id, "at",
                  (int)t->n, "action", proto_action_json(&t->rules, &a, true));
    srv_send(c, srv_with_id(reply, msg));
}
