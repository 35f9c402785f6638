/* --chip's names (chips.c): CUPTI's chip names and the products built on them, for the
 * "did you mean" of a name CUPTI would refuse. */
#ifndef GPUPROF_CLI_CHIPS_H
#define GPUPROF_CLI_CHIPS_H

/* The chip `name` was meant as when CUPTI would refuse it as written: a chip's name in other
 * case (gh100: GH100) or a product built on one (H100: GH100, "RTX 4090": AD102; case,
 * spaces, dashes and a leading NVIDIA, GeForce, Tesla or Quadro aside). NULL when `name` is
 * a chip as written, or names nothing this table knows: CUPTI, which may know newer chips,
 * decides then. */
const char *gp_chip_meant(const char *name);

#endif
