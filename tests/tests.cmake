# The tests, all driven by CTest.  Labels: unit (cmocka, also run under
# ASan + UBSan), property, golden, cli.

# Every tests/unit/test_*.c is one cmocka program.
file(GLOB BARBU_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${BARBU_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE barbu_ai barbu_proto barbu_store barbu_handle barbu_club
                                        barbu_replay PkgConfig::CMOCKA)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src/engine ${CMAKE_SOURCE_DIR}/tests/unit)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS unit)
endforeach()

# The property test: many seeded random games, over the variants (--games)
# and of every preset (--per-preset); about 35 s in a release build.  Fewer
# under the sanitizers and in debug builds (which check every invariant
# inside each apply), an order of magnitude slower.
add_executable(property_games ${CMAKE_SOURCE_DIR}/tests/property/property_games.c)
target_link_libraries(property_games PRIVATE barbu_ai)
if(BARBU_SANITIZE OR CMAKE_BUILD_TYPE STREQUAL "Debug")
  set(BARBU_PROPERTY_ARGS --games 420 --per-preset 40)
else()
  set(BARBU_PROPERTY_ARGS --games 5600 --per-preset 1000)
endif()
add_test(NAME property_games COMMAND property_games ${BARBU_PROPERTY_ARGS})
set_tests_properties(property_games PROPERTIES LABELS "unit;property")

# Golden records: replayed by the real program, compared with known results.
add_test(NAME golden_records
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/golden/run.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR}/tests/golden)
set_tests_properties(golden_records PROPERTIES LABELS golden)

# The command line, as a user runs it.
add_test(NAME cli
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/run.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli PROPERTIES LABELS cli)

# barbu verify: keyed and seeded records checked against their key or seed,
# and tampered ones refused with what differs.
add_test(NAME cli_verify
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/verify.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_verify PROPERTIES LABELS cli)

# barbu analyse: the text and the JSON of an analysis of a golden record,
# --help, records that do not replay or parse, bad options (easy level: fast).
add_test(NAME cli_analyse
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/analyse.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_analyse PROPERTIES LABELS cli TIMEOUT 120)

# barbu arena: duplicate matches, their JSON, and the same figures whatever
# the number of threads.
add_test(NAME cli_arena
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/arena.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_arena PROPERTIES LABELS cli TIMEOUT 120)

# barbu play in a terminal (tmux): every preset watched to its end, and a
# human's keys for Chinese Poker rows and a King declaration.
add_test(NAME cli_play
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/play.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_play PROPERTIES LABELS cli TIMEOUT 300)

# barbu scoresheet: a Fife game's sheet in the terminal and as a page, which
# headless Chromium renders (scripts/setup.sh check installs it; without it
# the test fails).  The page and its screenshot stay in the build directory:
# scoresheet.html, scoresheet.png.
add_test(NAME cli_scoresheet
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/scoresheet.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(cli_scoresheet PROPERTIES LABELS cli TIMEOUT 300)

# End-to-end tests (tests/e2e): the real server (barbu serve, a child of
# each test on a free port and its own database) driven over its protocol
# by our own WebSocket client (tests/e2e/wsc.c).  Each scenario is one test,
# labelled e2e (not unit: they need the server, not the sanitizer build).
# The load benchmark (bench/load.sh) builds bench_load but no test runs it.
add_library(barbu_e2e STATIC ${CMAKE_SOURCE_DIR}/tests/e2e/wsc.c ${CMAKE_SOURCE_DIR}/tests/e2e/e2e_lib.c
                             ${CMAKE_SOURCE_DIR}/tests/e2e/leak.c)
target_include_directories(barbu_e2e PUBLIC ${CMAKE_SOURCE_DIR}/tests/e2e)
target_link_libraries(barbu_e2e PUBLIC barbu_engine PkgConfig::JANSSON PkgConfig::OPENSSL)
add_executable(e2e ${CMAKE_SOURCE_DIR}/tests/e2e/e2e.c)
target_link_libraries(e2e PRIVATE barbu_e2e barbu_store)
foreach(scenario game resume restart hostile leak rules shutdown)
  add_test(NAME e2e_${scenario} COMMAND e2e $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(e2e_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()
# The attacks of a hostile player or network (tests/e2e/abuse*.c), one test
# each; the heavy measurements are bench/ scripts.
add_executable(abuse ${CMAKE_SOURCE_DIR}/tests/e2e/abuse.c ${CMAKE_SOURCE_DIR}/tests/e2e/abuse_table.c
                     ${CMAKE_SOURCE_DIR}/tests/e2e/abuse_bots.c ${CMAKE_SOURCE_DIR}/tests/e2e/abuse_conn.c
                     ${CMAKE_SOURCE_DIR}/tests/e2e/abuse_store.c ${CMAKE_SOURCE_DIR}/tests/e2e/abuse_web.c)
target_link_libraries(abuse PRIVATE barbu_e2e barbu_store)
foreach(scenario kibitz_seats kibitz_address seed kibitz_chat bot_timing bot_sink disk_full idle
                 lobby_chat slow_readers table_fill db_lock broken_row db_mode db_checkpoint bidi web)
  add_test(NAME abuse_${scenario} COMMAND abuse $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(abuse_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()
# What a club evening in the browser needs from the server
# (tests/e2e/evening*.c), one test each.
add_executable(evening ${CMAKE_SOURCE_DIR}/tests/e2e/evening.c
                       ${CMAKE_SOURCE_DIR}/tests/e2e/evening_rules.c
                       ${CMAKE_SOURCE_DIR}/tests/e2e/evening_life.c
                       ${CMAKE_SOURCE_DIR}/tests/e2e/evening_clock.c
                       ${CMAKE_SOURCE_DIR}/tests/e2e/evening_refusals.c)
target_link_libraries(evening PRIVATE barbu_e2e barbu_store z)
set(EVENING_SCENARIOS compressed suggest rules_pages logout sit_back close hand_over again again_keep
                      clock clock_rows clock_pass_on clock_paused clock_late refusals)
foreach(scenario ${EVENING_SCENARIOS})
  add_test(NAME evening_${scenario} COMMAND evening $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(evening_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()
# The club's pages and JSON twins tell nothing of a game in play, refuse bad
# parameters with sentences, and show the results once the games end.
add_executable(club_leak ${CMAKE_SOURCE_DIR}/tests/e2e/club_leak.c)
target_link_libraries(club_leak PRIVATE barbu_e2e)
if(BARBU_WEB)
  add_test(NAME club_leak COMMAND club_leak $<TARGET_FILE:barbu> ${CMAKE_BINARY_DIR}/web)
else()
  add_test(NAME club_leak COMMAND club_leak $<TARGET_FILE:barbu>)
endif()
set_tests_properties(club_leak PROPERTIES LABELS e2e TIMEOUT 240)
add_executable(bench_load ${CMAKE_SOURCE_DIR}/bench/load.c)
target_link_libraries(bench_load PRIVATE barbu_e2e)
# bench/botsink.sh: tables of computer players only beside a person's game.
add_executable(bench_botsink ${CMAKE_SOURCE_DIR}/bench/botsink.c)
target_link_libraries(bench_botsink PRIVATE barbu_e2e)
# bench/club.sh: the club's pages over a generated history (club_gen) under
# many requests (club_load); no test runs them.
add_executable(bench_club_gen ${CMAKE_SOURCE_DIR}/bench/club_gen.c)
target_link_libraries(bench_club_gen PRIVATE barbu_store barbu_club barbu_handle)
add_executable(bench_club_load ${CMAKE_SOURCE_DIR}/bench/club_load.c)
# bench/commit.sh: an action's commit through the store's API, SQLite beside
# PostgreSQL (issue 25); no test runs it.
add_executable(bench_commit ${CMAKE_SOURCE_DIR}/bench/commit.c)
target_link_libraries(bench_commit PRIVATE barbu_store Threads::Threads)
# bench/nodes.sh: from a node's SIGKILL to its last table playing on another
# node (issue 25); no test runs it.
add_executable(bench_nodes ${CMAKE_SOURCE_DIR}/bench/nodes.c)
target_link_libraries(bench_nodes PRIVATE barbu_e2e PkgConfig::PQ)

# barbu connect (tests/cli/connect.sh)
# The terminal client in tmux against a real barbu serve (port 0, its own
# database): the lobby's form creates a table with three computer players,
# a deal is played by keys, the client is killed and its saved token takes
# the seat back, chat, the score window, the record, a kibitzer.
add_test(NAME cli_connect
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/connect.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_connect PROPERTIES LABELS cli TIMEOUT 300)
# Its hint (issue 26): the create form's Hints field, the ? key at one's turn.
add_test(NAME cli_connect_hint
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/connect_hint.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_connect_hint PROPERTIES LABELS cli TIMEOUT 180)

# The browser client (web/) in Debian's Chromium, driven by playwright-core
# from web/node_modules (tests/e2e/browser): a person joins, makes a table
# with three computer players and plays by clicking, one scenario a rule set.
# Screenshots at 1280x800 and 390x844 go to browser-shots/ in the build.
if(BARBU_WEB)
  # Issue 22's evening: leaving safely, the clock and the turn (evening_a);
  # the invitation link and playing again (evening_again); pacing, the deal's
  # summary and review, the rules pages, the doubles (evening_b); Chinese
  # Poker's rows, the phone's hand, the axe-core audit (evening_c);
  # kibitzers and the small things (evening_d).
  # tls: the page over https:// and its WebSocket over wss:// (issue 23).
  foreach(scenario classic fife chinese king ravage evening_a evening_again evening_b evening_c
                   evening_d tls)
    add_test(NAME browser_${scenario}
             COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                     --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                     --only ${scenario})
    set_tests_properties(browser_${scenario} PROPERTIES LABELS browser TIMEOUT 240)
  endforeach()
endif()

# Registered handles (issue 23; tests/e2e/identity*.c): sign up, in and
# out, the password, look-alikes, the limits, expired and stolen tokens, a
# restart, no secret in the log, the database or another client's messages,
# and nobody else in a registered player's seat.
add_executable(identity ${CMAKE_SOURCE_DIR}/tests/e2e/identity.c
                        ${CMAKE_SOURCE_DIR}/tests/e2e/identity_guard.c)
target_link_libraries(identity PRIVATE barbu_e2e barbu_store)
foreach(scenario signup logout password lookalike limits limits_at_once expiry busy restart secrets guard shown)
  add_test(NAME identity_${scenario} COMMAND identity $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(identity_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()
# bench/read_hands.c: what the expert's models of the others' choices
# tell about the hands (issue 26); no test runs it.
add_executable(bench_read_hands ${CMAKE_SOURCE_DIR}/bench/read_hands.c)
target_include_directories(bench_read_hands PRIVATE ${CMAKE_SOURCE_DIR}/src/ai)
target_link_libraries(bench_read_hands PRIVATE barbu_ai m)
# bench/signin.sh: a burst of sign-ins beside running tables (built, not run
# by ctest).
add_executable(bench_signin ${CMAKE_SOURCE_DIR}/bench/signin.c)
target_link_libraries(bench_signin PRIVATE barbu_e2e)
# bench/pwhash.c: one password's Argon2id cost with the server's parameters.
add_executable(bench_pwhash ${CMAKE_SOURCE_DIR}/bench/pwhash.c)
target_include_directories(bench_pwhash PRIVATE ${CMAKE_SOURCE_DIR}/src/server ${CMAKE_SOURCE_DIR}/src/store)
target_link_libraries(bench_pwhash PRIVATE barbu_proto barbu_ai PkgConfig::SODIUM PkgConfig::LWS)

# Ladder tables and moderation (issue 23, points 2 and 5: tests/e2e/moderation*.c),
# one test each: registered players sign up through hello, administrators are
# named with barbu serve --admin, and the store is read after the server stops.
add_executable(moderation ${CMAKE_SOURCE_DIR}/tests/e2e/moderation.c
                          ${CMAKE_SOURCE_DIR}/tests/e2e/moderation_ladder.c
                          ${CMAKE_SOURCE_DIR}/tests/e2e/moderation_acts.c)
target_link_libraries(moderation PRIVATE barbu_e2e barbu_store)
foreach(scenario ladder_refusals ladder_players close_remove ban report admin_later forbidden)
  add_test(NAME moderation_${scenario} COMMAND moderation $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(moderation_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()

# Fair deals (issue 23, tests/e2e/fair*.c): a served game dealt from a key
# committed to before the first card and shown only at the end, its record
# checked by barbu verify; a restart mid-game; a seeded game as before.
add_executable(fair ${CMAKE_SOURCE_DIR}/tests/e2e/fair.c)
target_link_libraries(fair PRIVATE barbu_e2e)
foreach(scenario whole restart seeded)
  add_test(NAME fair_${scenario} COMMAND fair $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(fair_${scenario} PROPERTIES LABELS e2e TIMEOUT 300)
  # Whole games paced by the client's message rate (about 30 s each): the
  # sanitizer run (make test-asan) leaves them to the release run, since
  # e2e_game and e2e_restart run the same server paths under it.
  if(NOT scenario STREQUAL "whole")
    set_tests_properties(fair_${scenario} PROPERTIES LABELS "e2e;long")
  endif()
endforeach()

# Issue 23 in the browser (tests/e2e/browser/lib/accounts.mjs): signing up,
# in and out (here and everywhere), the password changed, guests marked, a
# ladder table refusing a guest (accounts); the commitment at the start and
# the key at the end, checked by b2sum and barbu verify (fair_deals); a
# report reaching an administrator's panel, a player removed, banned and
# unbanned (moderation).
if(BARBU_WEB)
  foreach(scenario accounts fair_deals moderation)
    add_test(NAME browser_${scenario}
             COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                     --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                     --only ${scenario})
    set_tests_properties(browser_${scenario} PROPERTIES LABELS browser TIMEOUT 240)
  endforeach()
endif()

# Issue 24's hand viewer (tests/e2e/browser/lib/club_viewer.mjs): a finished
# game of four computer players walked step by step in /club/viewer against
# its record, record files picked from disk (Fife, Chinese Poker, Domino) and
# a broken one's sentence; about 25 s alone.
if(BARBU_WEB)
  add_test(NAME browser_club_viewer
           COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                   --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                   --only club_viewer)
  set_tests_properties(browser_club_viewer PROPERTIES LABELS browser TIMEOUT 240 PROCESSORS 2)
endif()

# Issue 23, TLS (tests/e2e/tls.c): barbu serve --tls-cert/--tls-key with a
# certificate the test makes (the openssl program): a whole game over wss://,
# the pages over https://, plain ws:// refused; the files checked at start.
add_executable(tls_e2e ${CMAKE_SOURCE_DIR}/tests/e2e/tls.c)
target_link_libraries(tls_e2e PRIVATE barbu_e2e PkgConfig::OPENSSL)
foreach(scenario game start)
  add_test(NAME tls_${scenario} COMMAND tls_e2e $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(tls_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()
# barbu connect over wss:// in tmux (tests/cli/connect_tls.sh): --ca,
# a refused self-signed certificate, --self-signed.
add_test(NAME cli_connect_tls
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/connect_tls.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_connect_tls PROPERTIES LABELS cli TIMEOUT 180)
# barbu connect and registered players in tmux (tests/cli/connect_accounts.sh):
# sign up with --register, sign in with --password-file and by the password
# asked when the server says the name is registered, guests marked, an
# administrator's /ban and /modlog, a ladder table, the commitment and the
# key (barbu verify), /logout all revoking another device, /password,
# /register.
add_test(NAME cli_connect_accounts
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/connect_accounts.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_connect_accounts PROPERTIES LABELS cli TIMEOUT 240)

# Issue 26's analysis in the hand viewer (tests/e2e/browser/lib/
# club_analysis.mjs): a finished game analysed from the viewer's button, the
# worst mistake clicked, the decision panel at its position; the same
# record uploaded and analysed.
if(BARBU_WEB)
  add_test(NAME browser_club_analysis
           COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                   --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                   --only club_analysis)
  set_tests_properties(browser_club_analysis PROPERTIES LABELS browser TIMEOUT 300 PROCESSORS 2)
endif()

# The club (issue 24, tests/e2e/club_core.c): games played through the
# server kept in the store (results, abandoned games, the catch-up after a
# kill, credit by record and by deals), read after the server stops.
add_executable(club_core ${CMAKE_SOURCE_DIR}/tests/e2e/club_core.c)
target_link_libraries(club_core PRIVATE barbu_e2e barbu_store)
foreach(scenario finished abandoned restart credit ladder retry)
  add_test(NAME club_core_${scenario} COMMAND club_core $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(club_core_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()

# Game analyses through the server (issue 26, tests/e2e/club_analysis.c):
# a short game analysed, kept in the store and served again after a
# restart, an uploaded record, the refusals; the limits (--analyses 0,
# --analyses-queued 0), a computer players' table playing on meanwhile, a
# clean stop in the middle of one.
add_executable(club_analysis ${CMAKE_SOURCE_DIR}/tests/e2e/club_analysis.c)
target_link_libraries(club_analysis PRIVATE barbu_e2e barbu_pg_test)
foreach(scenario game limits)
  add_test(NAME club_analysis_${scenario} COMMAND club_analysis $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(club_analysis_${scenario} PROPERTIES LABELS e2e TIMEOUT 300 PROCESSORS 2)
endforeach()

# make check runs the release tests two to a core (ctest -j twice the cores):
# most end-to-end tests wait on their clients' pacing, not on the CPU.  The
# tests that keep cores busy (a browser, whole games of computer players) or
# that measure times count as two, so that they run beside at most one such
# test or two light ones, as with -j of the cores.
foreach(t property_games cli_arena cli_play cli_connect cli_connect_tls cli_connect_accounts
          e2e_game e2e_leak abuse_bot_timing abuse_slow_readers abuse_bot_sink abuse_idle
          evening_clock evening_clock_rows evening_clock_pass_on evening_clock_paused
          evening_clock_late
          browser_classic browser_fife browser_chinese browser_king browser_ravage
          browser_evening_a browser_evening_again browser_evening_b browser_evening_c
          browser_evening_d browser_tls browser_accounts browser_fair_deals browser_moderation)
  if(TEST ${t})
    set_tests_properties(${t} PROPERTIES PROCESSORS 2)
  endif()
endforeach()

# Issue 24 in the browser (tests/e2e/browser/lib/club_pages.mjs): the club's
# pages over a small history made through the server (a ladder game, rated
# games, abandoned ones, one running): the ladder, a player's page and its
# chart, a game's score sheet, the archive's pages and filters, the ratings,
# at 1280x800 and 390x844, axe; the create form's rated game and credit; the
# lobby's Club link.
if(BARBU_WEB)
  add_test(NAME browser_club_pages
           COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                   --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                   --only club_pages)
  set_tests_properties(browser_club_pages PROPERTIES LABELS browser TIMEOUT 240 PROCESSORS 2)
endif()
# The club end to end (issue 24, tests/e2e/club_play.c): a registered
# player's preferences kept with the account (club_prefs); games played
# through the server checked by hand in results, the ladder and the
# ratings (club_results).
add_executable(club_play ${CMAKE_SOURCE_DIR}/tests/e2e/club_play.c
                         ${CMAKE_SOURCE_DIR}/tests/e2e/club_prefs.c
                         ${CMAKE_SOURCE_DIR}/tests/e2e/club_results.c)
target_link_libraries(club_play PRIVATE barbu_e2e barbu_store m)
foreach(scenario prefs results)
  add_test(NAME club_${scenario} COMMAND club_play $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(club_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()
# Issue 24's preferences in the browser (tests/e2e/browser/lib/prefs.mjs):
# the table's colour, card spacing and size and the four-colour deck set in
# the settings dialog, applied at once, and found applied by a second
# browser profile signing in as the same player; a guest's stay local.
if(BARBU_WEB)
  add_test(NAME browser_club_prefs
           COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                   --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                   --only club_prefs)
  set_tests_properties(browser_club_prefs PROPERTIES LABELS browser TIMEOUT 240 PROCESSORS 2)
endif()

# Left to the release run (label long: make test-asan runs -LE long), to keep
# make check near its 20 minutes: tests whose worth is in what they compute,
# not in memory paths that no other test under the sanitizers walks.  The
# leak test's server paths (views to players and kibitzers, the lobby) run
# under ASan in e2e_game, abuse_kibitz_* and club_leak; the club's numbers
# checked by hand (club_results) run on the paths club_core walks; the exact
# solver runs under ASan inside the expert's decisions (test_expert).
foreach(t e2e_leak club_results test_solver)
  if(TEST ${t})
    set_property(TEST ${t} APPEND PROPERTY LABELS long)
  endif()
endforeach()

# A private PostgreSQL cluster (tests/pg/cluster.sh) for the tests that need
# one: each such test sets FIXTURES_REQUIRED pg and ENVIRONMENT
# ${BARBU_PG_ENV}, and makes its own database in it (tests/pg/pg_test.h).
# CTest starts the cluster before the first of them and stops it after the
# last, whatever labels were asked for.
set(BARBU_PG_DIR ${CMAKE_BINARY_DIR}/pg)
set(BARBU_PG_ENV "BARBU_TEST_PG=postgresql://barbu@/postgres?host=${BARBU_PG_DIR}/run&port=5432")
add_test(NAME pg_start COMMAND sh ${CMAKE_SOURCE_DIR}/tests/pg/cluster.sh start ${BARBU_PG_DIR})
add_test(NAME pg_stop COMMAND sh ${CMAKE_SOURCE_DIR}/tests/pg/cluster.sh stop ${BARBU_PG_DIR})
set_tests_properties(pg_start PROPERTIES FIXTURES_SETUP pg LABELS pg)
set_tests_properties(pg_stop PROPERTIES FIXTURES_CLEANUP pg LABELS pg)
add_library(barbu_pg_test STATIC ${CMAKE_SOURCE_DIR}/tests/pg/pg_test.c)
target_include_directories(barbu_pg_test PUBLIC ${CMAKE_SOURCE_DIR}/tests/pg)
target_link_libraries(barbu_pg_test PUBLIC PkgConfig::PQ)

# Issue 25: several nodes on one PostgreSQL, followed by the clients.
# barbu connect in tmux (tests/cli/connect_nodes.sh): a table on node A; the
# client started again on node B with its token is sent to A (moved) and
# plays, a kibitzer on B too; A is stopped and continued (its clients moved
# to B, the kibitzer watching again there); B is killed and the client finds
# its seat again through A once A adopted it.
add_test(NAME cli_connect_nodes
         COMMAND sh ${CMAKE_SOURCE_DIR}/tests/cli/connect_nodes.sh $<TARGET_FILE:barbu> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_connect_nodes PROPERTIES LABELS cli TIMEOUT 240 FIXTURES_REQUIRED pg
                     ENVIRONMENT "${BARBU_PG_ENV}" PROCESSORS 2)
# The same in the browser (tests/e2e/browser/lib/nodes.mjs): the page of
# node B, a table of node A, moved, then A killed and the game carried on
# through B without a reload.
if(BARBU_WEB)
  add_test(NAME browser_nodes
           COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                   --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                   --only nodes)
  set_tests_properties(browser_nodes PROPERTIES LABELS browser TIMEOUT 240 FIXTURES_REQUIRED pg
                       ENVIRONMENT "${BARBU_PG_ENV}" PROCESSORS 2)
endif()
# docs/deploy/nginx.conf through `nginx -t` (tests/deploy/nginx.sh), skipped
# when nginx is not installed.
add_test(NAME deploy_nginx COMMAND sh ${CMAKE_SOURCE_DIR}/tests/deploy/nginx.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(deploy_nginx PROPERTIES LABELS cli TIMEOUT 60 SKIP_RETURN_CODE 77)

# The store's tests against PostgreSQL: test_store again with --pg (what it
# skips there, and why, is in its main), and test_store_nodes (PostgreSQL
# only: leases, fencing, the shared lobby, the schema's migration).
target_link_libraries(test_store PRIVATE barbu_pg_test)
add_test(NAME test_store_pg COMMAND test_store --pg)
target_link_libraries(test_store_nodes PRIVATE barbu_pg_test)
set_tests_properties(test_store_pg test_store_nodes
                     PROPERTIES FIXTURES_REQUIRED pg ENVIRONMENT "${BARBU_PG_ENV}" LABELS "unit;pg")

# Several nodes on one PostgreSQL database (issue 25, tests/e2e/nodes.c):
# three `barbu serve --node` on a fresh database each, with a lease of 1.5
# seconds: the shared lobby, games across nodes through `moved`, a node
# SIGKILLed mid-trick (the record equals the uninterrupted game's), a node
# SIGSTOPped past its lease (no action written by it after the adoption), and
# the leak check over moves and an adoption.
add_executable(nodes_e2e ${CMAKE_SOURCE_DIR}/tests/e2e/nodes.c)
target_link_libraries(nodes_e2e PRIVATE barbu_e2e barbu_pg_test)
foreach(scenario lobby redirect kill partition leak)
  add_test(NAME nodes_${scenario} COMMAND nodes_e2e $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(nodes_${scenario} PROPERTIES LABELS e2e TIMEOUT 120 FIXTURES_REQUIRED pg
                                                    ENVIRONMENT "${BARBU_PG_ENV}")
endforeach()
# Left to the release run (label long): the lobby, the redirects and the
# leak check walk the paths that nodes_kill, nodes_partition and the
# nodes_basic_* tests walk under the sanitizers (moved, adoption, the shared
# lobby, a lost table dropped).
set_property(TEST nodes_lobby nodes_redirect nodes_leak APPEND PROPERTY LABELS long)

# The club's store tests again on PostgreSQL: the same program and the same
# assertions with --pg (a fresh database in the cluster for each case), and
# the fencing of game_begin and game_end by a table's lease.
# Game analyses on PostgreSQL (tests/e2e/club_analysis.c's pg): kept by the
# loop's connection, read back by the club's reader's, after a restart too.
add_test(NAME club_analysis_pg COMMAND club_analysis $<TARGET_FILE:barbu> pg)
set_tests_properties(club_analysis_pg PROPERTIES LABELS "e2e;pg" TIMEOUT 300 PROCESSORS 2
                     FIXTURES_REQUIRED pg ENVIRONMENT "${BARBU_PG_ENV}")

target_link_libraries(test_store_club PRIVATE barbu_pg_test)
add_test(NAME test_store_club_pg COMMAND test_store_club --pg)
set_tests_properties(test_store_club_pg PROPERTIES LABELS "unit;pg" FIXTURES_REQUIRED pg
                                                   ENVIRONMENT "${BARBU_PG_ENV}")

# Two nodes on one PostgreSQL database (tests/e2e/nodes_basic.c): moved, the
# shared lobby, an adoption after SIGKILL.  The three-node suite is
# tests/e2e/nodes.c.
add_executable(e2e_nodes_basic ${CMAKE_SOURCE_DIR}/tests/e2e/nodes_basic.c)
target_link_libraries(e2e_nodes_basic PRIVATE barbu_e2e barbu_pg_test)
add_test(NAME nodes_basic COMMAND e2e_nodes_basic $<TARGET_FILE:barbu> basic)
add_test(NAME nodes_basic_partition COMMAND e2e_nodes_basic $<TARGET_FILE:barbu> partition)
add_test(NAME nodes_basic_registered COMMAND e2e_nodes_basic $<TARGET_FILE:barbu> registered)
add_test(NAME nodes_basic_exclusion COMMAND e2e_nodes_basic $<TARGET_FILE:barbu> exclusion)
add_test(NAME nodes_basic_names COMMAND e2e_nodes_basic $<TARGET_FILE:barbu> names)
add_test(NAME nodes_basic_stale COMMAND e2e_nodes_basic $<TARGET_FILE:barbu> stale)
add_test(NAME nodes_basic_kibitzing COMMAND e2e_nodes_basic $<TARGET_FILE:barbu> kibitzing)
set_tests_properties(nodes_basic nodes_basic_partition nodes_basic_registered nodes_basic_exclusion
                     nodes_basic_names nodes_basic_stale nodes_basic_kibitzing
                     PROPERTIES FIXTURES_REQUIRED pg ENVIRONMENT "${BARBU_PG_ENV}" LABELS "e2e;pg"
                                TIMEOUT 120)

# Issue 26's hint in the browser (tests/e2e/browser/lib/hint.mjs): the
# create dialog's Hints box, the Hint button and the hinted card.
if(BARBU_WEB)
  add_test(NAME browser_hint
           COMMAND node ${CMAKE_SOURCE_DIR}/tests/e2e/browser/run.mjs --barbu $<TARGET_FILE:barbu>
                   --web ${CMAKE_BINARY_DIR}/web --shots ${CMAKE_BINARY_DIR}/browser-shots
                   --only hint)
  set_tests_properties(browser_hint PROPERTIES LABELS browser TIMEOUT 240)
endif()

# Issue 26 on a real server (tests/e2e/hint.c): the computer players keep a
# bot each for the game, through a restart (botseats), and hints (hint,
# hint_rows, hint_away).
add_executable(hint_e2e ${CMAKE_SOURCE_DIR}/tests/e2e/hint.c)
target_link_libraries(hint_e2e PRIVATE barbu_e2e barbu_ai)
foreach(scenario botseats hint hint_rows hint_away)
  add_test(NAME hint_${scenario} COMMAND hint_e2e $<TARGET_FILE:barbu> ${scenario})
  set_tests_properties(hint_${scenario} PROPERTIES LABELS e2e TIMEOUT 240)
endforeach()
