/*
 * handle.c - the rule of handles (docs/protocol.md, Handles): what a
 * handle may hold, the form it is shown in and the key that makes two
 * handles the same.
 *
 * A handle is shown as typed after NFC.  Its key is the UTS #39 skeleton
 * (ICU's uspoof_getSkeleton) of its NFKC_Casefold form, folded once more:
 * the skeleton maps look-alikes onto one prototype character, which may be
 * a capital (Cherokee folds to its capitals, and "Ꭺ" becomes "A"), so the
 * second fold puts "Ꭺlice" and "alice" on one key.  ICU's spoof checker
 * also holds each handle to the "highly restrictive" level: one script, or
 * the mixes of Han with Hiragana and Katakana, Hangul or Bopomofo, each with
 * Latin.
 *
 * ICU's objects are made once and only read afterwards; every caller is the
 * server's loop (and the unit tests).
 */
#include <stdio.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>

#include "internal.h"

/* UTF-16 units of a handle at any stage: 20 code points, each of which
 * NFKC_Casefold or the skeleton may turn into a few. */
#define HANDLE_UNITS 512

static USpoofChecker *checker;
static const UNormalizer2 *nfc, *fold;
static bool ready, broken;

static int init(void)
{
    if (ready)
        return broken ? -1 : 0;
    ready = true;
    UErrorCode status = U_ZERO_ERROR;
    nfc = unorm2_getNFCInstance(&status);
    fold = unorm2_getNFKCCasefoldInstance(&status);
    checker = uspoof_open(&status);
    if (U_SUCCESS(status)) {
        uspoof_setRestrictionLevel(checker, USPOOF_HIGHLY_RESTRICTIVE);
        uspoof_setChecks(
            checker, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS, &status);
    }
    broken = U_FAILURE(status);
    return broken ? -1 : 0;
}

static int to_utf8(const UChar *in, int32_t n, char *out, size_t cap)
{
    UErrorCode status = U_ZERO_ERROR;
    int32_t len = 0;
    u_strToUTF8(out, (int32_t)cap, &len, in, n, &status);
    if (U_FAILURE(status) || (size_t)len >= cap)
        return -1;
    out[len] = '\0';
    return 0;
}

/* The key of an NFC form: skeleton of NFKC_Casefold, folded again. */
static int make_key(const UChar *text, int32_t n, char key[], size_t cap)
{
    UErrorCode status = U_ZERO_ERROR;
    UChar folded[HANDLE_UNITS], skel[HANDLE_UNITS], again[HANDLE_UNITS];
    int32_t nf = unorm2_normalize(fold, text, n, folded, HANDLE_UNITS, &status);
    int32_t ns = U_SUCCESS(status)
                     ? uspoof_getSkeleton(checker, 0, folded, nf, skel, HANDLE_UNITS, &status)
                     : 0;
    int32_t na =
        U_SUCCESS(status) ? unorm2_normalize(fold, skel, ns, again, HANDLE_UNITS, &status) : 0;
    if (U_FAILURE(status) || na >= HANDLE_UNITS)
        return -1;
    return to_utf8(again, na, key, cap);
}

static void say(char *why, size_t cap, const char *fmt, const char *what)
{
    if (why && cap)
        snprintf(why, cap, fmt, what);
}

int srv_handle_check(const char *utf8, char display[], char key[], char *why, size_t cap)
{
    display[0] = key[0] = '\0';
    if (init() != 0) {
        say(why, cap, "%s", "The server cannot check names just now: try again later.");
        return -1;
    }
    UErrorCode status = U_ZERO_ERROR;
    UChar raw[HANDLE_UNITS], text[HANDLE_UNITS];
    int32_t n = 0;
    u_strFromUTF8(raw, HANDLE_UNITS, &n, utf8, -1, &status);
    if (U_FAILURE(status) || n >= HANDLE_UNITS) {
        say(why, cap, "%s", "A name is text in UTF-8 of 1 to 20 characters: choose one like that.");
        return -1;
    }
    n = unorm2_normalize(nfc, raw, n, text, HANDLE_UNITS, &status);
    if (U_FAILURE(status) || n >= HANDLE_UNITS) {
        say(why, cap, "%s", "A name is 1 to 20 characters: choose a shorter one.");
        return -1;
    }

    /* The character rule, code point by code point. */
    int count = 0;
    bool after_letter = false;
    UChar32 prev = 0;
    for (int32_t i = 0; i < n;) {
        UChar32 ch;
        U16_NEXT(text, i, n, ch);
        count++;
        int8_t type = u_charType(ch);
        bool letter = type >= U_UPPERCASE_LETTER && type <= U_OTHER_LETTER;
        bool mark = type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK ||
                    type == U_COMBINING_SPACING_MARK;
        if (letter) {
            after_letter = true;
        } else if (mark) {
            if (!after_letter) {
                say(why, cap, "%s",
                    "A name's accents and other marks go on a letter: put each after the letter "
                    "it belongs to.");
                return -1;
            }
        } else if (type == U_DECIMAL_DIGIT_NUMBER || ch == '_' || ch == '-' || ch == '.') {
            after_letter = false;
        } else if (ch == ' ') {
            if (i == 1 || i == n) {
                say(why, cap, "%s",
                    "A name may not start or end with a space: take the space away.");
                return -1;
            }
            if (prev == ' ') {
                say(why, cap, "%s",
                    "A name has single spaces between its words: take the extra space away.");
                return -1;
            }
            after_letter = false;
        } else {
            char one[8] = "";
            UChar unit[2];
            int32_t k = 0;
            U16_APPEND_UNSAFE(unit, k, ch);
            if (u_isprint(ch) && !u_isspace(ch) && to_utf8(unit, k, one, sizeof one) == 0)
                say(why, cap,
                    "A name is letters, digits, '_', '-', '.' and single inner spaces, so not "
                    "\"%s\": choose a name without it.",
                    one);
            else
                say(why, cap, "%s",
                    "A name is letters, digits, '_', '-', '.' and single inner spaces (no control "
                    "or invisible characters): choose one like that.");
            return -1;
        }
        prev = ch;
    }
    if (count < 1 || count > PROTO_MAX_NAME) {
        say(why, cap, "%s", "A name is 1 to 20 characters: choose one like that.");
        return -1;
    }
    if (to_utf8(text, n, display, PROTO_NAME_BYTES + 1) != 0) {
        say(why, cap, "%s", "A name is 1 to 20 characters: choose a shorter one.");
        return -1;
    }
    if (make_key(text, n, key, SRV_KEY_CAP) != 0) {
        display[0] = '\0';
        say(why, cap, "%s", "This name cannot be checked: choose a simpler one.");
        return -1;
    }

    /* The key is kept even when the mix of scripts is refused, so that the
     * server can say which registered name a look-alike imitates. */
    int32_t result = uspoof_check(checker, text, n, NULL, &status);
    if (U_FAILURE(status)) {
        display[0] = '\0';
        say(why, cap, "%s", "This name cannot be checked: choose a simpler one.");
        return -1;
    }
    if (result & USPOOF_RESTRICTION_LEVEL) {
        display[0] = '\0';
        say(why, cap, "%s",
            "A name is written in one script (Latin, Cyrillic, Greek, ...; Japanese and the "
            "other Han mixes count as one), and this one mixes several: choose a name in one "
            "script.");
        return -1;
    }
    if (result & USPOOF_MIXED_NUMBERS) {
        display[0] = '\0';
        say(why, cap, "%s",
            "A name's digits come from one set (0-9, or another script's): choose digits of one "
            "kind.");
        return -1;
    }
    if (result & USPOOF_INVISIBLE) {
        display[0] = '\0';
        say(why, cap, "%s",
            "A name may not repeat a mark on one letter: take the repeated mark away.");
        return -1;
    }
    return 0;
}

bool srv_handle_same_case(const char *a, const char *b)
{
    if (init() != 0)
        return strcmp(a, b) == 0;
    UErrorCode status = U_ZERO_ERROR;
    UChar ua[HANDLE_UNITS], ub[HANDLE_UNITS], fa[HANDLE_UNITS], fb[HANDLE_UNITS];
    int32_t na = 0, nb = 0;
    u_strFromUTF8(ua, HANDLE_UNITS, &na, a, -1, &status);
    u_strFromUTF8(ub, HANDLE_UNITS, &nb, b, -1, &status);
    int32_t fna = U_SUCCESS(status) ? unorm2_normalize(fold, ua, na, fa, HANDLE_UNITS, &status) : 0;
    int32_t fnb = U_SUCCESS(status) ? unorm2_normalize(fold, ub, nb, fb, HANDLE_UNITS, &status) : 0;
    if (U_FAILURE(status))
        return strcmp(a, b) == 0;
    return fna == fnb && u_memcmp(fa, fb, fna) == 0;
}

void srv_handle_key(const char *utf8, char key[SRV_KEY_CAP])
{
    char display[PROTO_NAME_BYTES + 1];
    char why[8];
    srv_handle_check(utf8, display, key, why, sizeof why);
    if (key[0] == '\0') {
        /* A name stored before the rule (restored from an old database):
         * its bytes, lower-cased, so that it still has a key of its own. */
        size_t i = 0;
        for (; utf8[i] && i < SRV_KEY_CAP - 2; i++)
            key[i] = (char)((utf8[i] >= 'A' && utf8[i] <= 'Z') ? utf8[i] + 32 : utf8[i]);
        key[i] = '\0';
    }
}

bool srv_handle_equal(const char *a, const char *b)
{
    char ka[SRV_KEY_CAP], kb[SRV_KEY_CAP];
    srv_handle_key(a, ka);
    srv_handle_key(b, kb);
    return strcmp(ka, kb) == 0;
}
