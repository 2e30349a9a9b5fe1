/*
 * club_http.h - what the club's HTTP side (club_http.c: routes, the reader
 * thread) and its answers (club_json.c: the JSON of each page, the record,
 * the replay) share.  A query is checked on the event loop; its answer is
 * made from a store handle with nothing of the server's, so on the reader
 * thread.
 */
#ifndef BARBU_SERVER_CLUB_HTTP_H
#define BARBU_SERVER_CLUB_HTTP_H

#include "internal.h"
#include "replay.h"

#define CLUB_PER_PAGE    25
#define CLUB_PAGE_MAX    1000000     /* a page number beyond is a bad parameter */
#define CLUB_QUEUE       64          /* requests waiting for the reader at most: 503 beyond */
#define CLUB_BODY_MAX    (1L << 20)  /* a record POSTed to /club/api/replay: 413 beyond */
#define CLUB_UPLOADS     4           /* records being received at once at most: 503 beyond */
#define CLUB_BODY_FIRST  (16L << 10) /* a record's first room, doubled as its body comes */
/* The ladder's games to be ranked in a period when the server's option
 * says 0 (barbu serve --ladder-min-games). */
#define CLUB_MIN_GAMES   3
/* A player's or level's page: the newest points of its rating's history. */
#define CLUB_HISTORY_MAX 500

enum {
    CLUB_LADDER,
    CLUB_PLAYER,
    CLUB_LEVEL,
    CLUB_GAME,
    CLUB_GAMES,
    CLUB_RECORD,
    CLUB_REPLAY,      /* GET /club/api/game/ID/replay */
    CLUB_REPLAY_POST, /* POST /club/api/replay */
    CLUB_RATINGS,
    CLUB_ANALYSIS,      /* GET or POST /club/api/game/ID/analysis */
    CLUB_ANALYSIS_POST, /* POST /club/api/analysis: a record's analysis */
    CLUB_ANALYSIS_KEY   /* GET /club/api/analysis/SHA256HEX: the same, asked again */
};

typedef struct club_query {
    int kind;
    char period[8];                  /* "2026-11" or "2026" */
    char name[PROTO_NAME_BYTES + 1]; /* the player page's, or the archive's player */
    char key[SRV_KEY_CAP];           /* its handle key */
    char level[16];                  /* "medium" */
    int64_t id;                      /* a game */
    int page;                        /* from 1 */
    /* The archive's filter ("" / 0 / -1 for any). */
    char rules[16];
    char from_text[11], to_text[11]; /* as given: "2026-11-01" */
    int64_t from, to;                /* [from, to) in seconds; 0 for none */
    int status;                      /* STORE_GAME_*, -1 */
    int ladder;                      /* 1, 0, -1 */
    /* The server's. */
    int64_t now; /* the wall clock when asked */
    int min_games;
    const barbu_serve_options *opt;
    /* POST: the body read. */
    char *body;
    size_t body_len;
    /* An analysis: its key ("game:ID", "record:SHA256HEX"), the seat (0-3,
     * -1 when not given), the level (in level, "medium" when not given),
     * and whether it was a POST (which starts it). */
    char akey[SRV_ANALYSIS_KEY_CAP];
    int seat;
    bool post;
} club_query;

typedef struct club_answer {
    int status;       /* HTTP */
    const char *type; /* content type */
    char *body;       /* malloc'd */
    size_t len;
    char disposition[64]; /* "attachment; filename=..." or "" */
    /* An analysis to start (the loop starts it, srv_analyses_submit): the
     * record's text (malloc'd), NULL for any other answer. */
    char *record;
} club_answer;

/* Makes the answer to a checked query from db (any thread). */
void club_answer_query(store *db, const club_query *q, club_answer *a);
/* An error answer: the status and {"error": "A sentence."}. */
void club_answer_error(club_answer *a, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
