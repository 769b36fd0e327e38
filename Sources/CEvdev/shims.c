#include "CEvdev.h"
#include <libevdev/libevdev.h>
