// The declaration in include/CFuzzerDriver.h is all this module provides; SwiftPM needs
// one source file per C target.
#include "CFuzzerDriver.h"
