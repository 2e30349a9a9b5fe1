/*
 * store_pg_identity.c - who is who in the PostgreSQL store: accounts,
 * registered players' tokens (by their hashes), who played which deals,
 * and moderation (administrators, bans, acts, reports).  The same
 * semantics as store_sqlite.c's, statement for statement.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_pg_internal.h"

/* ---------------------------------------------------------------- accounts */

int pg_account_create(store *s, const char *key, const char *name, const char *hash)
{
    pg_store *p = pg_of(s);
    if (!key || !name || !hash || !key[0]) {
        pg_failf(p, "an account needs a key, a name and a password's hash");
        return -1;
    }
    char now[24];
    const char *params[4] = {key, name, hash, pg_i64((int64_t)time(NULL), now)};
    PGresult *r = pg_run(p, "could not save an account",
                         "INSERT INTO accounts(key, name, hash, created) VALUES ($1, $2, $3, $4) "
                         "ON CONFLICT (key) DO NOTHING",
                         4, params);
    if (!r)
        return -1;
    int made = strcmp(PQcmdTuples(r), "1") == 0;
    PQclear(r);
    return made;
}

int pg_account_get(store *s, const char *key, store_account *out)
{
    pg_store *p = pg_of(s);
    if (!key || !out) {
        pg_failf(p, "an account is read by its key");
        return -1;
    }
    const char *params[1] = {key};
    PGresult *r = pg_run(p, "could not read an account",
                         "SELECT key, name, hash, created, admin, banned FROM accounts "
                         "WHERE key = $1",
                         1, params);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found) {
        memset(out, 0, sizeof *out);
        snprintf(out->key, sizeof out->key, "%s", PQgetvalue(r, 0, 0));
        snprintf(out->name, sizeof out->name, "%s", PQgetvalue(r, 0, 1));
        snprintf(out->hash, sizeof out->hash, "%s", PQgetvalue(r, 0, 2));
        out->created = pg_get_i64(r, 0, 3);
        out->admin = pg_get_bool(r, 0, 4);
        out->banned = pg_get_bool(r, 0, 5);
    }
    PQclear(r);
    return found;
}

int pg_account_set_hash(store *s, const char *key, const char *hash)
{
    pg_store *p = pg_of(s);
    if (!key || !hash) {
        pg_failf(p, "a password's hash needs its account's key");
        return -1;
    }
    const char *params[2] = {key, hash};
    return pg_do(p, "could not change a password", "UPDATE accounts SET hash = $2 WHERE key = $1",
                 2, params);
}

int pg_account_set_flags(store *s, const char *key, int admin, int banned)
{
    pg_store *p = pg_of(s);
    if (!key) {
        pg_failf(p, "an account's flags need its key");
        return -1;
    }
    const char *params[3] = {key,
                             admin < 0 ? NULL
                             : admin   ? "t"
                                       : "f",
                             banned < 0 ? NULL
                             : banned   ? "t"
                                        : "f"};
    return pg_do(p, "could not change an account",
                 "UPDATE accounts SET admin = coalesce($2::boolean, admin), "
                 "banned = coalesce($3::boolean, banned) WHERE key = $1",
                 3, params);
}

/* ------------------------------------------------------------------ tokens */

int pg_token_put(store *s, const char *hash, const char *key, int64_t created, int64_t expires)
{
    pg_store *p = pg_of(s);
    if (!hash || !key) {
        pg_failf(p, "a token needs its hash and its account's key");
        return -1;
    }
    char c[24], e[24];
    const char *params[4] = {hash, key, pg_i64(created, c), pg_i64(expires, e)};
    return pg_do(p, "could not save a token",
                 "INSERT INTO tokens(hash, key, created, expires) VALUES ($1, $2, $3, $4)", 4,
                 params);
}

int pg_token_get(store *s, const char *hash, char key[], int64_t *expires)
{
    pg_store *p = pg_of(s);
    if (!hash || !key || !expires) {
        pg_failf(p, "a token is read by its hash");
        return -1;
    }
    const char *params[1] = {hash};
    PGresult *r = pg_run(p, "could not read a token",
                         "SELECT key, expires FROM tokens WHERE hash = $1", 1, params);
    if (!r)
        return -1;
    int found = PQntuples(r) > 0;
    if (found) {
        snprintf(key, STORE_KEY_CAP, "%s", PQgetvalue(r, 0, 0));
        *expires = pg_get_i64(r, 0, 1);
    }
    PQclear(r);
    return found;
}

int pg_token_forget(store *s, const char *hash)
{
    pg_store *p = pg_of(s);
    if (!hash) {
        pg_failf(p, "a token is forgotten by its hash");
        return -1;
    }
    const char *params[1] = {hash};
    return pg_do(p, "could not forget a token", "DELETE FROM tokens WHERE hash = $1", 1, params);
}

int pg_tokens_forget(store *s, const char *key, const char *except)
{
    pg_store *p = pg_of(s);
    if (!key) {
        pg_failf(p, "an account's tokens are forgotten by its key");
        return -1;
    }
    const char *params[2] = {key, except};
    return pg_do(p, "could not forget an account's tokens",
                 "DELETE FROM tokens WHERE key = $1 AND ($2::text IS NULL OR hash <> $2)", 2,
                 params);
}

int pg_tokens_expire(store *s, int64_t now)
{
    char n[24];
    const char *params[1] = {pg_i64(now, n)};
    return pg_do(pg_of(s), "could not forget the expired tokens",
                 "DELETE FROM tokens WHERE expires <= $1", 1, params);
}

/* ------------------------------------------------------ deals' players */

int pg_deal_player_put(store *s, int64_t table, const store_deal_player *dp)
{
    pg_store *p = pg_of(s);
    if (!dp || !dp->name || dp->seat < 0 || dp->seat > 3 || dp->deal < 0) {
        pg_failf(p, "a deal's player needs a deal, a seat from 0 to 3 and a name");
        return -1;
    }
    char fence[24], tid[24], deal[24], at[24], seat[24];
    if (!pg_fence(p, table, fence))
        return STORE_FENCED;
    const char *params[8] = {
        pg_i64(table, tid), pg_i64(dp->deal, deal),     pg_i64(dp->at, at), pg_i64(dp->seat, seat),
        dp->name,           dp->registered ? "t" : "f", dp->level,          fence};
    if (!fence[0])
        return pg_do(p, "could not save a deal's player",
                     "INSERT INTO deal_players(table_id, deal, at, seat, name, registered, level) "
                     "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                     7, params);
    PGresult *r = pg_run(p, "could not save a deal's player",
                         "WITH f AS (SELECT id FROM tables WHERE id = $1 AND epoch = $8::bigint "
                         "FOR SHARE) INSERT INTO deal_players(table_id, deal, at, seat, name, "
                         "registered, level) SELECT $1, $2, $3, $4, $5, $6, $7 FROM f",
                         8, params);
    if (!r)
        return -1;
    bool written = strcmp(PQcmdTuples(r), "0") != 0;
    PQclear(r);
    return written ? 0 : pg_fenced(p, table);
}

int pg_deal_players_load(store *s, int64_t table, void (*fn)(void *ctx, const store_deal_player *p),
                         void *ctx)
{
    pg_store *p = pg_of(s);
    if (!pg_load_enter(p, PG_LOAD_DEAL_PLAYERS, "deal_players_load"))
        return -1;
    char tid[24];
    const char *params[1] = {pg_i64(table, tid)};
    PGresult *r = pg_run(p, "could not load the deals' players",
                         "SELECT deal, at, seat, name, registered, level FROM deal_players "
                         "WHERE table_id = $1 ORDER BY deal, id",
                         1, params);
    if (r) {
        for (int k = 0; k < PQntuples(r); k++) {
            store_deal_player dp = {
                .deal = (int)pg_get_i64(r, k, 0),
                .at = (uint32_t)pg_get_i64(r, k, 1),
                .seat = (int)pg_get_i64(r, k, 2),
                .name = pg_get_text(r, k, 3),
                .registered = pg_get_bool(r, k, 4),
                .level = pg_get_text(r, k, 5),
            };
            fn(ctx, &dp);
        }
        PQclear(r);
    }
    pg_load_leave(p, PG_LOAD_DEAL_PLAYERS);
    return r ? 0 : -1;
}

/* -------------------------------------------------------------- moderation */

int pg_admin_put(store *s, const char *key, const char *name)
{
    pg_store *p = pg_of(s);
    if (!key || !name) {
        pg_failf(p, "an administrator needs a key and a name");
        return -1;
    }
    char now[24];
    const char *params[3] = {key, name, pg_i64((int64_t)time(NULL), now)};
    return pg_do(p, "could not save an administrator",
                 "INSERT INTO admins(key, name, added) VALUES ($1, $2, $3) "
                 "ON CONFLICT (key) DO UPDATE SET name = excluded.name",
                 3, params);
}

int pg_admins_load(store *s, void (*fn)(void *ctx, const char *key, const char *name), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!pg_load_enter(p, PG_LOAD_ADMINS, "admins_load"))
        return -1;
    PGresult *r = pg_run(p, "could not load the administrators",
                         "SELECT key, name FROM admins ORDER BY added, key", 0, NULL);
    if (r) {
        for (int k = 0; k < PQntuples(r); k++)
            fn(ctx, PQgetvalue(r, k, 0), PQgetvalue(r, k, 1));
        PQclear(r);
    }
    pg_load_leave(p, PG_LOAD_ADMINS);
    return r ? 0 : -1;
}

int pg_ban_put(store *s, const store_mod_row *ban)
{
    pg_store *p = pg_of(s);
    if (!ban || !ban->key || !ban->name || !ban->by) {
        pg_failf(p, "a ban needs a key, a name and who banned");
        return -1;
    }
    char at[24];
    const char *params[5] = {ban->key, ban->name, pg_i64(ban->at, at), ban->by,
                             ban->text ? ban->text : ""};
    return pg_do(p, "could not save a ban",
                 "INSERT INTO bans(key, name, at, by, text) VALUES ($1, $2, $3, $4, $5) "
                 "ON CONFLICT (key) DO UPDATE SET name = excluded.name, at = excluded.at, "
                 "by = excluded.by, text = excluded.text",
                 5, params);
}

int pg_ban_delete(store *s, const char *key)
{
    const char *params[1] = {key};
    return pg_do(pg_of(s), "could not lift a ban", "DELETE FROM bans WHERE key = $1", 1, params);
}

int pg_bans_load(store *s, void (*fn)(void *ctx, const store_mod_row *ban), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!pg_load_enter(p, PG_LOAD_BANS, "bans_load"))
        return -1;
    PGresult *r = pg_run(p, "could not load the bans",
                         "SELECT key, name, at, by, text FROM bans ORDER BY at, key", 0, NULL);
    if (r) {
        for (int k = 0; k < PQntuples(r); k++) {
            store_mod_row row = {
                .key = PQgetvalue(r, k, 0),
                .name = PQgetvalue(r, k, 1),
                .at = pg_get_i64(r, k, 2),
                .by = PQgetvalue(r, k, 3),
                .text = PQgetvalue(r, k, 4),
            };
            fn(ctx, &row);
        }
        PQclear(r);
    }
    pg_load_leave(p, PG_LOAD_BANS);
    return r ? 0 : -1;
}

/* An act (act set) or a report: the row's id in *id. */
static int mod_row_add(pg_store *p, const store_mod_row *row, int64_t *id, const char *what)
{
    if (!row || !row->by) {
        pg_failf(p, "%s: who did it is missing", what);
        return -1;
    }
    char at[24], tbl[24];
    const char *params[6] = {
        pg_i64(row->at, at),        row->by, row->table ? pg_i64(row->table, tbl) : NULL, row->name,
        row->text ? row->text : "", row->act};
    PGresult *r = row->act ? pg_run(p, what,
                                    "INSERT INTO moderation(at, by, tbl, name, text, act) "
                                    "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                                    6, params)
                           : pg_run(p, what,
                                    "INSERT INTO reports(at, by, tbl, name, text) "
                                    "VALUES ($1, $2, $3, $4, $5) RETURNING id",
                                    5, params);
    if (!r)
        return -1;
    if (id)
        *id = pg_get_i64(r, 0, 0);
    PQclear(r);
    return 0;
}

int pg_mod_act_add(store *s, const store_mod_row *act, int64_t *id)
{
    pg_store *p = pg_of(s);
    if (!act || !act->act) {
        pg_failf(p, "a moderation act needs its kind");
        return -1;
    }
    return mod_row_add(p, act, id, "could not save a moderation act");
}

int pg_report_add(store *s, const store_mod_row *report, int64_t *id)
{
    pg_store *p = pg_of(s);
    if (!report || report->act) {
        pg_failf(p, "a report has no act");
        return -1;
    }
    return mod_row_add(p, report, id, "could not save a report");
}

int pg_mod_log_load(store *s, int limit, void (*fn)(void *ctx, const store_mod_row *row), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!pg_load_enter(p, PG_LOAD_MOD_LOG, "mod_log_load"))
        return -1;
    char lim[24];
    const char *params[1] = {pg_i64(limit, lim)};
    /* The acts, newest first, then the reports, newest first: as the SQLite
     * store hands them. */
    static const char *const SQL[2] = {
        "SELECT id, at, by, act, tbl, name, text FROM moderation ORDER BY id DESC LIMIT $1",
        "SELECT id, at, by, NULL, tbl, name, text FROM reports ORDER BY id DESC LIMIT $1",
    };
    int result = 0;
    for (int i = 0; i < 2 && result == 0; i++) {
        PGresult *r = pg_run(p, "could not load the moderation log", SQL[i], 1, params);
        if (!r) {
            result = -1;
            break;
        }
        for (int k = 0; k < PQntuples(r); k++) {
            store_mod_row row = {
                .id = pg_get_i64(r, k, 0),
                .at = pg_get_i64(r, k, 1),
                .by = pg_get_text(r, k, 2),
                .act = pg_get_text(r, k, 3),
                .table = pg_get_i64(r, k, 4),
                .name = pg_get_text(r, k, 5),
                .text = pg_get_text(r, k, 6),
            };
            fn(ctx, &row);
        }
        PQclear(r);
    }
    pg_load_leave(p, PG_LOAD_MOD_LOG);
    return result;
}

int pg_removals_load(store *s, void (*fn)(void *ctx, int64_t table, const char *name), void *ctx)
{
    pg_store *p = pg_of(s);
    if (!pg_load_enter(p, PG_LOAD_REMOVALS, "removals_load"))
        return -1;
    PGresult *r = pg_run(p, "could not load the removals",
                         "SELECT m.tbl, m.name FROM moderation m JOIN tables t ON t.id = m.tbl "
                         "WHERE m.act = 'remove' AND m.name IS NOT NULL AND t.state <> 2 "
                         "ORDER BY m.id",
                         0, NULL);
    if (r) {
        for (int k = 0; k < PQntuples(r); k++)
            fn(ctx, pg_get_i64(r, k, 0), PQgetvalue(r, k, 1));
        PQclear(r);
    }
    pg_load_leave(p, PG_LOAD_REMOVALS);
    return r ? 0 : -1;
}
