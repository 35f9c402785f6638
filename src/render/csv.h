/* The CSV format's views (csv.c; rank views: csv_ranks.c; exec's --by-range:
 * csv_ranges.c; exec's --stalls: csv_stalls.c); it has none of devices or metrics. */
#ifndef GPUPROF_RENDER_CSV_H
#define GPUPROF_RENDER_CSV_H

#include "render/views.h"

gp_report_view gp_csv_exec, gp_csv_ranks, gp_csv_exec_ranges, gp_csv_exec_stalls;
gp_compare_view gp_csv_compare;
gp_list_view gp_csv_list;
extern const gp_stream_view gp_csv_stream;

#endif
