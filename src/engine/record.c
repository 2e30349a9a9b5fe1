/* record.c - TEMPORARY placeholder. */
#include "internal.h"
