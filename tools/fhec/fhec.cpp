// fhec: compile CKKS programs to FHE kernels, or compile and run them (`fhec run`).
#include "codegen/Driver.h"

int main(int argc, char **argv) { return fhec::driverMain(argc, argv); }
