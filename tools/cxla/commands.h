/* commands.h: the cxla subcommands, one per file (cmd_<name>.c). Each takes
 * argv with argv[0] = the subcommand's name and returns the exit status. */
#ifndef CXLA_TOOL_COMMANDS_H
#define CXLA_TOOL_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_conform(int argc, char **argv);
int cmd_opt(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
