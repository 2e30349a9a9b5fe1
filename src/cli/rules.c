/*
 * rules.c - prints a preset as a rules file, or checks one.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "server.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: barbu rules [PRESET|FILE] [--changes]\n"
                 "       barbu rules --html [PRESET|FILE]\n"
                 "       barbu rules --list\n\n"
                 "Prints a rule set as a rules file that sets every option and every score, so a\n"
                 "club can start its house rules from it ('barbu play --rules FILE').  Given a\n"
                 "file, checks it and prints it in full; errors name the line.\n\n"
                 "  --changes   only the lines that differ from the preset\n"
                 "  --html      the rules explained for players, as a web page (the page\n"
                 "              barbu serve shows at /rules/PRESET): every contract, the\n"
                 "              doubling and each option in force, house rules included\n"
                 "  --list      the presets, one a line: its name and what it is\n");
}

/* The rules page; a rules file's changes to its preset show as house
 * rules. */
static int print_html(const char *arg, const barbu_rules *rules)
{
    char *house = NULL;
    const char *about = NULL;
    for (int p = 0; barbu_preset_name(p) != NULL; p++)
        if (strcmp(barbu_preset_name(p), rules->preset) == 0)
            about = barbu_preset_about(p);
    bool is_preset = strcmp(arg, rules->preset) == 0;
    if (!is_preset) {
        int n = barbu_rules_write(rules, true, NULL, 0);
        house = malloc((size_t)n + 1);
        if (house == NULL) {
            fprintf(stderr, "barbu rules: out of memory\n");
            return 1;
        }
        barbu_rules_write(rules, true, house, (size_t)n + 1);
    }
    char title[300];
    if (is_preset)
        snprintf(title, sizeof title, "Barbu rules: %s", rules->preset);
    else
        snprintf(title, sizeof title, "Barbu rules: %s (%s with house rules)", arg, rules->preset);
    char *page = barbu_rules_page(rules, title, about, house);
    free(house);
    if (page == NULL) {
        fprintf(stderr, "barbu rules: out of memory\n");
        return 1;
    }
    fputs(page, stdout);
    free(page);
    return 0;
}

int cmd_rules(int argc, char **argv)
{
    const char *arg = "uk";
    bool changes = false, html = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--list") == 0) {
            for (int p = 0; barbu_preset_name(p) != NULL; p++)
                printf("%-11s %s\n", barbu_preset_name(p), barbu_preset_about(p));
            return 0;
        } else if (strcmp(argv[i], "--changes") == 0) {
            changes = true;
        } else if (strcmp(argv[i], "--html") == 0) {
            html = true;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "barbu rules: unknown option '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        } else {
            arg = argv[i];
        }
    }
    barbu_rules rules;
    if (cli_load_rules(arg, &rules) != 0)
        return 1;
    if (html)
        return print_html(arg, &rules);
    int n = barbu_rules_write(&rules, changes, NULL, 0);
    char *buf = malloc((size_t)n + 1);
    if (buf == NULL) {
        fprintf(stderr, "barbu rules: out of memory\n");
        return 1;
    }
    barbu_rules_write(&rules, changes, buf, (size_t)n + 1);
    if (!changes)
        printf("# barbu rules file: '%s'.  Every line is 'key = value'; a line may be\n"
               "# left out to keep the preset's value.  See docs/rules.md.\n",
               rules.preset);
    fputs(buf, stdout);
    free(buf);
    return 0;
}
