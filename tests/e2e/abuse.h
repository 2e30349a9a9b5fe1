/*
 * abuse.h - the end-to-end tests of a server under abuse (issue 21 of the
 * project): each scenario does one attack against a real barbu serve and
 * checks that it no longer works.  abuse.c runs them by name; each file
 * holds the attacks on one part of the server.
 */
#ifndef BARBU_ABUSE_H
#define BARBU_ABUSE_H

#include "e2e.h"

/* abuse_table.c: what a kibitzer or a table's creator could learn or say. */
void abuse_kibitz_seats(void);   /* a kibitzer walks round the seats */
void abuse_kibitz_address(void); /* a player kibitzes their own table */
void abuse_seed(void);           /* a chosen seed, told to everybody */
void abuse_kibitz_chat(void);    /* a kibitzer tells a player the cards */

/* abuse_bots.c: the computer players. */
void abuse_bot_timing(void); /* answer times that show forced plays */
void abuse_bot_sink(void);   /* tables of computer players only as a CPU sink */
void abuse_disk_full(void);  /* a computer player's move that cannot be saved */

/* abuse_conn.c: one machine's connections, memory and tables. */
void abuse_idle(void);         /* connections that never say hello */
void abuse_lobby_chat(void);   /* lobby chat fanned out to everybody */
void abuse_slow_readers(void); /* clients that never read */
void abuse_table_fill(void);   /* sessions that fill the table limit */

/* abuse_store.c: the database. */
void abuse_db_lock(void);       /* two servers on one database */
void abuse_broken_row(void);    /* one malformed table row */
void abuse_db_mode(void);       /* a database other users can read */
void abuse_db_checkpoint(void); /* checkpoints (fsyncs) that stall the loop */

/* abuse_web.c: text and the HTTP side. */
void abuse_bidi(void); /* bidi controls in chat */
void abuse_web(void);  /* Origin, headers, symlinks out of the web folder */

#endif
