/* Command-line parsing: defaults, every option form, and the usage errors (exit 2). */
#include "tap.h"

#include "gpuprof/cli.h"
#include "gpuprof/commands.h"
#include "gpuprof/exec_modes.h"
#include "gpuprof/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static gp_request req;

/* Run the parser on "gpuprof" followed by the NULL-terminated arguments. */
static int parse_list(const char *first, va_list ap, int *argc_out)
{
    static char *argv[64];
    int argc = 0;
    argv[argc++] = "gpuprof";
    for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    argv[argc] = NULL;
    *argc_out = argc;
    gp_clear_error();
    return gp_parse_command_line(argc, argv, &req);
}

/* parse("reduce", "--block=512", NULL) */
static int parse(const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    int argc;
    int rc = parse_list(first, ap, &argc);
    va_end(ap);
    return rc;
}

/* The arguments are refused as a usage error whose message mentions why_substring. */
static void refused(const char *why_substring, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    int argc;
    int rc = parse_list(first, ap, &argc);
    va_end(ap);
    bool mentions = strstr(gp_error(), why_substring) != NULL;
    if (!mentions)
        tap_diag("message was: %s", gp_error());
    tap_ok(rc == GP_ERR_USAGE && mentions, "refused with '%s': %s%s", why_substring,
           first ? first : "(nothing)", argc > 2 ? " ..." : "");
}

static void defaults(void)
{
    tap_ok(parse("reduce", NULL) == GP_OK, "plain 'reduce' parses");
    tap_ok(req.command->run == gp_cmd_kernel && req.family == gp_find_family("reduce"),
           "reduce is a kernel command");
    size_t n = gp_find_family("reduce")->n_variants;
    tap_ok(req.n_variants == n && n >= 12, "default: every reduce variant (%zu)", req.n_variants);
    tap_ok(req.n_sizes == 1 && req.sizes[0].n == (1u << 24), "default size 2^24");
    tap_ok(req.n_types == 1 && req.types[0] == GP_INT32, "default type int32");
    tap_ok(req.n_blocks == 0, "default block: each variant's own");
    tap_ok(req.repeat == GP_DEFAULT_REPEAT && req.warmup == GP_DEFAULT_WARMUP, "default repeat/warmup");
    tap_ok(req.metrics.kind == GP_METRICS_DEFAULT, "metrics on by default");
    tap_ok(req.output == GP_OUT_TEXT && req.device == 0, "text output on device 0");
}

static void every_option(void)
{
    int rc = parse("reduce", "--variant=shfl,cub", "--block", "256", "--size=2^20,1000",
                   "--type=int32,float32", "--repeat=5", "--warmup=0", "--seed=9", "--csv",
                   "--no-header", "--device", "1", NULL);
    tap_ok(rc == GP_OK, "all reduce options together parse");
    tap_ok(req.n_variants == 2 && strcmp(req.variants[0]->name, "shfl") == 0 &&
               strcmp(req.variants[1]->name, "cub") == 0, "--variant list in order");
    tap_ok(req.n_blocks == 1 && req.blocks[0].x == 256, "--block 256 (separate argument)");
    tap_ok(req.n_sizes == 2 && req.sizes[0].n == (1u << 20) && req.sizes[1].n == 1000,
           "--size list with 2^20");
    tap_ok(req.n_types == 2 && req.types[1] == GP_FLOAT32, "--type list");
    tap_ok(req.repeat == 5 && req.warmup == 0 && req.seed == 9 && req.device == 1,
           "repeat, warmup, seed, device");
    tap_ok(req.output == GP_OUT_CSV && req.no_header, "--csv --no-header");
    tap_ok(parse("reduce", "--var=shfl", NULL) == GP_OK && req.n_variants == 1,
           "unambiguous prefix --var");
    tap_ok(parse("reduce", "--variant=shfl,shfl", NULL) == GP_OK && req.n_variants == 1,
           "a variant listed twice runs once");
    tap_ok(parse("reduce", "--variant=all", NULL) == GP_OK && req.n_variants >= 12,
           "--variant=all");
    tap_ok(parse("reduce", "--block=32", "--variant=neighbored", NULL) == GP_OK,
           "block 32 for neighbored");
    tap_ok(parse("reduce", "--metrics=none", NULL) == GP_OK &&
               req.metrics.kind == GP_METRICS_NONE, "--metrics=none");
    tap_ok(parse("exec", "--launches", "--json", "--output=-", "--", "ls", NULL) == GP_OK &&
               req.launches && req.output == GP_OUT_JSON,
           "exec --launches --json (JSON holds every launch)");
    tap_ok(parse("exec", "--launches", "--csv", "--output=r.csv", "--", "ls", NULL) == GP_OK &&
               req.launches, "exec --launches --csv");
    tap_ok(parse("exec", "-f", "--output=r.json", "--json", "ls", "-f", NULL) == GP_OK &&
               req.force && strcmp(req.output_file, "r.json") == 0 && req.program_argc == 2,
           "exec -f is --force; the program's own -f is the program's");
    tap_ok(parse("exec", "--force", "--output=r.txt", "ls", NULL) == GP_OK && req.force,
           "exec --force --output=FILE");
    tap_ok(parse("report", "a.json", "--launches", NULL) == GP_OK && req.launches,
           "report --launches");
    tap_ok(parse("report", "a.json", "--metrics-d", NULL) == GP_OK && req.metrics_detail,
           "a prefix that is no option's full name still abbreviates");
    tap_ok(parse("metrics", "--chip=GH100", NULL) == GP_OK && strcmp(req.chip, "GH100") == 0,
           "--chip=GH100");
    tap_ok(parse("metrics", "--chip=GZ999", NULL) == GP_OK && strcmp(req.chip, "GZ999") == 0,
           "a chip the table does not know is left to CUPTI");
    tap_ok(parse("reduce", "--metrics=all", NULL) == GP_OK && req.metrics.kind == GP_METRICS_ALL,
           "--metrics=all");
    tap_ok(parse("reduce", "--metrics=gld_efficiency,dram__bytes_read.sum", NULL) == GP_OK &&
               req.metrics.kind == GP_METRICS_LIST && req.metrics.n_names == 2 &&
               strcmp(req.metrics.names[1], "dram__bytes_read.sum") == 0,
           "--metrics list of a key and a PerfWorks name");
    tap_ok(parse("reduce", "--metrics=l2", NULL) == GP_OK && req.metrics.kind == GP_METRICS_LIST &&
               req.metrics.groups == GP_GROUP_BIT(GP_GROUP_L2) && req.metrics.n_names == 0,
           "--metrics=l2: a group");
    tap_ok(parse("reduce", "--metrics=default,l2", NULL) == GP_OK &&
               req.metrics.kind == GP_METRICS_LIST &&
               req.metrics.groups == (GP_GROUP_BIT(GP_GROUP_DEFAULT) | GP_GROUP_BIT(GP_GROUP_L2)),
           "--metrics=default,l2: two groups");
    tap_ok(parse("reduce", "--metrics=l2,atomics,gld_efficiency", NULL) == GP_OK &&
               req.metrics.groups ==
                   (GP_GROUP_BIT(GP_GROUP_L2) | GP_GROUP_BIT(GP_GROUP_ATOMICS)) &&
               req.metrics.n_names == 1 && strcmp(req.metrics.names[0], "gld_efficiency") == 0,
           "--metrics=l2,atomics,gld_efficiency: groups and a key");
    tap_ok(parse("reduce", "--metrics=local,sysmem,async", NULL) == GP_OK &&
               req.metrics.groups == (GP_GROUP_BIT(GP_GROUP_LOCAL) |
                                      GP_GROUP_BIT(GP_GROUP_SYSMEM) |
                                      GP_GROUP_BIT(GP_GROUP_ASYNC)),
           "--metrics=local,sysmem,async");
    tap_ok(parse("reduce", "--metrics=default", NULL) == GP_OK &&
               req.metrics.kind == GP_METRICS_DEFAULT && req.metrics.groups == 0,
           "--metrics=default alone is the default set");
    tap_ok(parse("reduce", "--json", NULL) == GP_OK && req.output == GP_OUT_JSON, "--json");
    tap_ok(parse("reduce", "--metrics-detail", "--require-metrics", NULL) == GP_OK &&
               req.metrics_detail && req.require_metrics, "--metrics-detail --require-metrics");
    tap_ok(parse("reduce", "--help", NULL) == GP_OK && req.command->run == gp_cmd_help &&
               strcmp(req.help_topic, "reduce") == 0, "reduce --help");
    tap_ok(parse("reduce", "--bogus", "--help", NULL) != GP_OK, "an unknown option is reported even with --help");
    tap_ok(parse("--version", NULL) == GP_OK && req.command->run == gp_cmd_version,
           "--version");
    tap_ok(parse("--help", NULL) == GP_OK && req.command->run == gp_cmd_help && !req.help_topic,
           "--help");
    tap_ok(parse("help", "transpose", NULL) == GP_OK && req.command->run == gp_cmd_help &&
               req.n_operands == 1 && strcmp(req.operands[0], "transpose") == 0,
           "help COMMAND");
    tap_ok(parse("report", "a.json", NULL) == GP_OK && req.n_operands == 1 &&
               strcmp(req.operands[0], "a.json") == 0, "report FILE");
    tap_ok(parse("report", "--", "--odd-name.json", NULL) == GP_OK &&
               strcmp(req.operands[0], "--odd-name.json") == 0, "-- ends the options");
    tap_ok(parse("list", "--csv", "--no-header", NULL) == GP_OK, "list --csv --no-header");
    tap_ok(parse("metrics", "--chip=GH100", NULL) == GP_OK && strcmp(req.chip, "GH100") == 0,
           "metrics --chip");
    tap_ok(parse("device", NULL) == GP_OK && req.device == -1, "device: all GPUs by default");
}

/* A family parameter's option lists values into the request, by the parameter's index; the
 * plan resolves the defaults. */
static void family_params(void)
{
    const gp_param_values *groups = &req.params[GP_REDUCE2D_GROUP];
    tap_ok(parse("reduce2d", "--group=2,4", NULL) == GP_OK && groups->n == 2 &&
               groups->values[0] == 2 && groups->values[1] == 4,
           "--group=2,4: two values of reduce2d's group");
    tap_ok(parse("reduce2d", NULL) == GP_OK && groups->n == 0,
           "no --group: no value listed (the default is the plan's)");
    tap_ok(parse("transpose", "--pad=1", "--pad=2,3", NULL) == GP_OK &&
               req.params[GP_TRANSPOSE_PAD].n == 2 && req.params[GP_TRANSPOSE_PAD].values[0] == 2,
           "a parameter's list starts again each time its option is given");
    tap_ok(parse("transpose", "--pad=1", NULL) == GP_OK && req.n_variants == 3,
           "--pad alone selects the padded variants");
    tap_ok(parse("saxpy", "--grid=2147483647", NULL) == GP_OK &&
               req.params[GP_SAXPY_GRID].values[0] == 2147483647.0 &&
               req.params[GP_SAXPY_ALPHA].n == 0,
           "--grid up to 2^31 - 1; alpha has no option");
    refused("--grid does not apply to saxpy monolithic", "saxpy", "--variant=monolithic",
            "--grid=4", NULL);
    refused("must be a power of two", "reduce2d", "--group=12", NULL);
    refused("must be from 0 to 32", "transpose", "--pad=33", NULL);
    refused("option '--pad' does not apply to 'reduce2d'", "reduce2d", "--pad=1", NULL);
}

/* "--metrics=" followed by `count` distinct raw counter names (about 40 characters each). */
static const char *long_metric_list(size_t count)
{
    static char buf[8192];
    size_t used = (size_t)snprintf(buf, sizeof buf, "--metrics=");
    for (size_t i = 0; i < count && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used,
                                 "%slts__t_sectors_srcunit_tex_op_%zu.sum", i ? "," : "", i);
    return buf;
}

static void long_lists(void)
{
    tap_ok(parse("reduce", long_metric_list(GP_MAX_METRIC_NAMES), NULL) == GP_OK &&
               req.metrics.n_names == GP_MAX_METRIC_NAMES &&
               strcmp(req.metrics.names[GP_MAX_METRIC_NAMES - 1],
                      "lts__t_sectors_srcunit_tex_op_63.sum") == 0,
           "--metrics takes %d raw names (%zu characters)", GP_MAX_METRIC_NAMES,
           strlen(long_metric_list(GP_MAX_METRIC_NAMES)));
    refused("too many items in --metrics", "reduce", long_metric_list(GP_MAX_METRIC_NAMES + 1),
            NULL);
    static char huge[400];
    memset(huge, 'x', sizeof huge - 1);
    memcpy(huge, "--variant=shfl,", 15);
    refused("item 2 of --variant is too long", "reduce", huge, NULL);
}

static void usage_errors(void)
{
    refused("exec --json needs --output=FILE", "exec", "--json", "ls", NULL);
    refused("exec --csv needs --output=FILE", "exec", "--csv", "--", "ls", NULL);
    refused("--force applies to --output only", "exec", "-f", "ls", NULL);
    refused("unknown option '-f' for 'reduce'", "reduce", "-f", NULL);
    refused("unknown option '-ff' for 'exec'", "exec", "-ff", "--output=r.json", "ls", NULL);
    refused("no command", NULL, NULL);
    refused("unknown command 'bogus'", "bogus", NULL);
    refused("unknown option '--bogus'", "reduce", "--bogus", NULL);
    refused("ambiguous", "reduce", "--re=5", NULL);
    refused("unknown variant 'nope'", "reduce", "--variant=nope", NULL);
    refused("valid: neighbored", "reduce", "--variant=nope", NULL);
    refused("not allowed for reduce unrollwarps8", "reduce", "--block=32", "--variant=unrollwarps8", NULL);
    refused("not allowed", "reduce", "--block=100", NULL);
    refused("invalid block", "reduce", "--block=2048", NULL);
    refused("must be at least 1", "reduce", "--size=0", NULL);
    refused("invalid size", "reduce", "--size=lots", NULL);
    refused("invalid type", "reduce", "--type=int64", NULL);
    refused("cannot be combined", "reduce", "--json", "--csv", NULL);
    refused("--no-header applies to --csv", "reduce", "--no-header", NULL);
    refused("--metrics-detail applies to text", "reduce", "--json", "--metrics-detail", NULL);
    refused("unexpected argument 'extra'", "reduce", "extra", NULL);
    refused("must be from 1", "reduce", "--repeat=0", NULL);
    refused("needs a value", "reduce", "--repeat", NULL);
    refused("needs a value", "reduce", "--size=", NULL);
    refused("takes no value", "reduce", "--json=1", NULL);
    refused("unknown option '-x'", "reduce", "-x", NULL);
    refused("whole number", "reduce", "--seed=-1", NULL);
    refused("unknown metric or group 'bogus'", "reduce", "--metrics=bogus", NULL);
    refused("did you mean 'l2'", "reduce", "--metrics=l3", NULL);
    refused("did you mean 'atomics'", "reduce", "--metrics=default,atomic", NULL);
    refused("cannot be combined", "reduce", "--metrics=default,all", NULL);
    refused("cannot be combined", "reduce", "--metrics=l2,none", NULL);
    refused("cannot be combined", "reduce", "--metrics=all,gld_efficiency", NULL);
    refused("contradicts", "reduce", "--metrics=none", "--require-metrics", NULL);
    refused("empty item", "reduce", "--variant=shfl,", NULL);
    refused("needs FILE", "report", NULL);
    refused("unexpected argument", "compare", "a.json", "b.json", "c.json", NULL);
    refused("needs BASE NEW", "compare", "a.json", NULL);
    refused("--threshold", "compare", "a.json", "b.json", "--threshold=-1", NULL);
    refused("--max-noise", "reduce", "--max-noise=0", NULL);
    refused("--max-noise", "reduce", "--max-noise=101", NULL);
    refused("cannot be combined", "reduce", "--html", "--json", NULL);
    refused("did you mean 'unrollwarps8'", "reduce", "--variant=unrollwarp8", NULL);
    refused("did you mean '--block'", "reduce", "--blok=512", NULL);
    refused("did you mean 'report'", "repot", NULL);
    refused("more than 2000 nodes", "exec", "--kernel=((a{99}){99}){99}", "--", "ls", NULL);
    refused("repeats what can match nothing", "exec", "--kernel=IWWr^r?++++++fl,cub", "--", "ls",
            NULL);
    refused("option '--block' does not apply to 'list'", "list", "--block=5", NULL);
    refused("--chip and --device", "metrics", "--chip=GH100", "--device=0", NULL);
    refused("option '--type' does not apply to 'list'", "list", "--type=int32", NULL);
    /* Another command's option is never read as an abbreviation of one of this command's. */
    refused("option '--metrics' does not apply to 'report'", "report", "a.json",
            "--metrics=none", NULL);
    refused("did you mean 'shfl'?", "reduce", "--variant=SHFL", NULL);
    refused("did you mean 'all'?", "reduce", "--metrics=al", NULL);
    refused("did you mean 'none'?", "exec", "--metrics=NONE", "--", "ls", NULL);
    refused("unknown chip 'gh100'; did you mean 'GH100'?", "metrics", "--chip=gh100", NULL);
    refused("unknown chip 'H100'; did you mean 'GH100'?", "metrics", "--chip=H100", NULL);
    refused("did you mean 'AD102'?", "metrics", "--chip=NVIDIA GeForce RTX 4090", NULL);
    refused("did you mean 'GA102'?", "metrics", "--chip=a10", NULL);
    refused("did you mean 'GA100'?", "metrics", "--chip=A100", NULL);
    refused("--launches does not apply to --html", "report", "a.json", "--launches", "--html",
            NULL);
}

/* --graph-profiling: node unless given, each mode by name in both forms, accepted with
 * --metrics=none (as --replay is: nothing is profiled then in any mode), refused otherwise. */
static void graph_profiling(void)
{
    tap_ok(parse("exec", "--", "ls", NULL) == GP_OK && req.exec.graph_profiling == GP_GRAPH_NODE,
           "exec: graph profiling node by default");
    bool every = true;
    for (unsigned m = 0; m < GP_GRAPH_MODES; m++) {
        char arg[64];
        snprintf(arg, sizeof arg, "--graph-profiling=%s", gp_graph_profiling_names[m]);
        every = every && parse("exec", arg, "ls", NULL) == GP_OK && req.exec.graph_profiling == m &&
                parse("exec", "--graph-profiling", gp_graph_profiling_names[m], "--", "ls",
                      NULL) == GP_OK && req.exec.graph_profiling == m;
    }
    tap_ok(every, "exec --graph-profiling=MODE and --graph-profiling MODE, every mode");
    tap_ok(parse("exec", "--graph-profiling=graph", "--metrics=none", "--", "ls", NULL) ==
                   GP_OK && req.exec.graph_profiling == GP_GRAPH_WHOLE,
           "--graph-profiling with --metrics=none is accepted, as --replay is");
    tap_ok(parse("exec", "--graph-profiling=time", "--replay=rotate", "ls", NULL) == GP_OK &&
               req.exec.graph_profiling == GP_GRAPH_TIME && req.exec.replay == GP_EXEC_REPLAY_ROTATE,
           "--graph-profiling beside --replay");
    refused("invalid value 'nod' for --graph-profiling; did you mean 'node'? (valid: node, "
            "graph, time)", "exec", "--graph-profiling=nod", "ls", NULL);
    refused("did you mean 'graph'?", "exec", "--graph-profiling=Graph", "ls", NULL);
    refused("did you mean 'time'?", "exec", "--graph-profiling", "tme", "ls", NULL);
    refused("--graph-profiling needs a value", "exec", "--graph-profiling=", "ls", NULL);
    refused("option '--graph-profiling' does not apply to 'report'", "report", "a.json",
            "--graph-profiling=node", NULL);
    refused("option '--graph-profiling' does not apply to 'reduce'", "reduce",
            "--graph-profiling=time", NULL);
}

void test_cli(void)
{
    defaults();
    every_option();
    usage_errors();
    long_lists();
    family_params();
    graph_profiling();
}
