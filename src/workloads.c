/* Which workload serves which family. */
#include "workload.h"

const gp_workload_ops *gp_workload_for(gp_family family)
{
    switch (family) {
    case GP_FAM_REDUCE: return &gp_reduce_workload;
    case GP_FAM_TRANSPOSE: return &gp_transpose_workload;
    case GP_FAM_REDUCE2D: return &gp_reduce2d_workload;
    case GP_FAM_SAXPY: return &gp_saxpy_workload;
    case GP_FAM_COUNT: break;
    }
    return NULL;
}
