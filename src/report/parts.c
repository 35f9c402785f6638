/* Every declared part (gpuprof/report_parts.h), listed for the tests that hold each
 * declaration to its rules: a new part's file adds its line here. */
#include "gpuprof/report_parts.h"

const gp_part *const gp_report_parts[] = {
    &gp_unified_part,
    &gp_kernels_part,
    &gp_rank_kernel_part,
    &gp_rank_spread_part,
    &gp_rank_cell_part,
    &gp_rank_entry_part,
    &gp_compare_part,
    &gp_compare_side_part,
    &gp_source_line_part,
    &gp_source_exec_line_part,
    &gp_source_pc_part,
    &gp_launch_part,
    &gp_results_part,
    &gp_copies_part,
    &gp_host_memory_part,
    &gp_gpu_activities_part,
    &gp_activities_part,
    &gp_graph_nodes_part,
    &gp_metric_stats_part,
    &gp_metric_value_part,
    &gp_variant_part,
    &gp_device_part,
    &gp_metric_def_part,
    &gp_sources_part,
    &gp_sweep_part,
    &gp_kernel_metrics_part,
    &gp_ranges_part,
    &gp_stall_kernel_part,
    &gp_stall_line_part,
    &gp_stall_run_part,
    &gp_stall_pc_part,
};
const size_t gp_n_report_parts = sizeof gp_report_parts / sizeof *gp_report_parts;
