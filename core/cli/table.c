/* The commands, in the general help's order: each a row beside its work
 * (cli/commands.h).  A new command is its row and one line here. */
#include "cli/commands.h"

#include <string.h>

static const struct command_row *const command_table[] = {
	&row_list, &row_info,  &row_metrics, &row_run,    &row_compare, &row_report, &row_try, &row_learn,
	&row_grade, &row_board, &row_config, &row_new,   &row_check, &row_record,  &row_help,   &row_version,
};

const struct command_row *command_at(size_t i)
{
	return i < sizeof command_table / sizeof command_table[0] ? command_table[i] : NULL;
}

const struct command_row *command_named(const char *name)
{
	for (size_t i = 0; command_at(i); i++)
		if (!strcmp(command_at(i)->name, name))
			return command_at(i);
	return NULL;
}
