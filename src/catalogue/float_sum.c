/* The float32 sum check shared by reduce and reduce2d: against a double-precision reference
 * (gp_seeded_float_sum), |got - ref| <= 1e-5 * sum |x_i| (the bound the man page states). */
#include "catalogue/workload.h"

#include <math.h>
#include <string.h>

#define REL_TOL 1e-5

void gp_check_float_sum(double got, double ref, double ref_abs, gp_check *check)
{
    memset(check, 0, sizeof *check);
    check->exact = false;
    check->expected = ref;
    check->got = got;
    check->tolerance = REL_TOL * ref_abs;
    const bool ok = fabs(got - ref) <= check->tolerance; /* NaN fails */
    check->status = ok ? GP_CHECK_PASSED : GP_CHECK_FAILED;
    snprintf(check->detail, sizeof check->detail,
             "sum %.9g, expected %.9g, |error| %.3g <= %.3g (1e-5 * sum|x|)", got, ref,
             fabs(got - ref), check->tolerance);
}
