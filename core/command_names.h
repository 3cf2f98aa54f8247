/* Each command's name, spelled here alone (docs/hacking.md, "Commands and
 * options: one row each").  A ground-floor header, so that every layer
 * may say a command: a row's .name is one (cli/), and a message below
 * cli/ that names gpulab's command word ("`gpulab list` shows them", a
 * record's rerun line) writes it by concatenation, "gpulab " CMD_RUN,
 * so that the text stays whole in the source and in the output.
 * tests/spellings.py refuses "gpulab NAME" in a string anywhere else. */
#ifndef GPULAB_COMMAND_NAMES_H
#define GPULAB_COMMAND_NAMES_H

#define CMD_LIST "list"
#define CMD_INFO "info"
#define CMD_METRICS "metrics"
#define CMD_CONFIG "config"
#define CMD_RUN "run"
#define CMD_TRY "try"
#define CMD_LEARN "learn"
#define CMD_GRADE "grade"
#define CMD_BOARD "board"
#define CMD_COMPARE "compare"
#define CMD_REPORT "report"
#define CMD_RECORD "record"
#define CMD_NEW "new"
#define CMD_CHECK "check"
#define CMD_HELP "help"
#define CMD_VERSION "version"

#endif
