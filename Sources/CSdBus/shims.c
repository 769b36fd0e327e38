// See CSdBus.h for why these exist: each returns the vtable entry one
// SD_BUS_* macro of sd-bus-vtable.h makes.
#include "CSdBus.h"

sd_bus_vtable CSdBus_vtable_start(uint64_t flags) {
    sd_bus_vtable entry = SD_BUS_VTABLE_START(flags);
    return entry;
}

sd_bus_vtable CSdBus_vtable_method(const char *member, const char *signature, const char *result,
                                   sd_bus_message_handler_t handler, uint64_t flags) {
    sd_bus_vtable entry = SD_BUS_METHOD(member, signature, result, handler, flags);
    return entry;
}

sd_bus_vtable CSdBus_vtable_property(const char *member, const char *signature, sd_bus_property_get_t getter,
                                     uint64_t flags) {
    sd_bus_vtable entry = SD_BUS_PROPERTY(member, signature, getter, 0, flags);
    return entry;
}

sd_bus_vtable CSdBus_vtable_writable_property(const char *member, const char *signature,
                                              sd_bus_property_get_t getter, sd_bus_property_set_t setter,
                                              uint64_t flags) {
    sd_bus_vtable entry = SD_BUS_WRITABLE_PROPERTY(member, signature, getter, setter, 0, flags);
    return entry;
}

sd_bus_vtable CSdBus_vtable_end(void) {
    sd_bus_vtable entry = SD_BUS_VTABLE_END;
    return entry;
}
