// CSdBus: the one part of sd-bus (libsystemd) that Swift cannot reach: the
// entries of an object's vtable. Everything else of sd-bus is called from
// Swift directly (CSystemd), the variadic calls replaced by their
// non-variadic forms (sd_bus_message_append_basic, _read_basic,
// sd_bus_emit_properties_changed_strv...). No policy here: which members the
// interface has, their names and flags are decided in Swift.
//
// Why a shim: sd_bus_vtable is a struct of two bitfields and a union of
// anonymous structs, and sd-bus-vtable.h asks that it be filled only through
// its SD_BUS_* macros, which also put in the element size, the feature bits
// and the format reference the library checks when the vtable is
// registered. Swift cannot expand those macros, so each function below
// returns the entry one macro makes. It could go if sd-bus ever exported
// constructor functions, or once Swift imports such initializer macros.
//
// The strings passed in must outlive the vtable (sd-bus keeps the pointers):
// the Swift side passes StaticString storage.
#ifndef CSDBUS_H
#define CSDBUS_H

#include <stdint.h>
#include <systemd/sd-bus.h>

// SD_BUS_VTABLE_START(flags): the first entry.
sd_bus_vtable CSdBus_vtable_start(uint64_t flags);

// SD_BUS_METHOD(member, signature, result, handler, flags), without argument names.
sd_bus_vtable CSdBus_vtable_method(const char *member, const char *signature, const char *result,
                                   sd_bus_message_handler_t handler, uint64_t flags);

// SD_BUS_PROPERTY(member, signature, getter, 0, flags): a read-only property.
sd_bus_vtable CSdBus_vtable_property(const char *member, const char *signature, sd_bus_property_get_t getter,
                                     uint64_t flags);

// SD_BUS_WRITABLE_PROPERTY(member, signature, getter, setter, 0, flags).
sd_bus_vtable CSdBus_vtable_writable_property(const char *member, const char *signature,
                                              sd_bus_property_get_t getter, sd_bus_property_set_t setter,
                                              uint64_t flags);

// SD_BUS_VTABLE_END: the last entry.
sd_bus_vtable CSdBus_vtable_end(void);

#endif
