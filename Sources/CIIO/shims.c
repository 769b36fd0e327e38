#include "CIIO.h"
