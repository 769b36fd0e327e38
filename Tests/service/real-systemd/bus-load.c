// bus-load: one client of tiltscrolld's D-Bus interface sending many
// messages at once, for Tests/service/real-systemd/guest-test and
// Tests/service/bus-tests.
//
//   bus-load load [--writes N] [--reads R] [--calibrations M] [--in-flight K] [--first X] [--step S]
//       N writes of Sensitivity (the values X, X+S, X+2S, ...: distinct, so
//       that each applied write shows as one PropertiesChanged), R calls of
//       Properties.GetAll and M calls of Calibrate, interleaved, at most K
//       unanswered at a time.
//   bus-load garbage [--huge BYTES]
//       Messages the daemon must refuse: wrong signatures, unknown members,
//       interfaces and properties, read-only writes, strings of BYTES bytes.
//
// Prints "error NAME COUNT" for each error name seen and, last,
// "summary sent=N ok=N errors=N"; exits 0 once every message was answered,
// 1 if a reply was lost (timeout) or the bus failed.
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#define NAME "io.github.tiltscroll.TiltScroll1"
#define PATH "/io/github/tiltscroll/TiltScroll1"
#define INTERFACE NAME

struct tally {
    unsigned sent, ok, errors, lost, in_flight;
    struct {
        char name[128];
        unsigned count;
    } names[32];
    unsigned name_count;
};

static void count_error(struct tally *t, const char *name) {
    for (unsigned i = 0; i < t->name_count; i++) {
        if (strcmp(t->names[i].name, name) == 0) {
            t->names[i].count++;
            return;
        }
    }
    if (t->name_count < 32) {
        snprintf(t->names[t->name_count].name, sizeof t->names[0].name, "%s", name);
        t->names[t->name_count++].count = 1;
    }
}

static int on_reply(sd_bus_message *reply, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    struct tally *t = userdata;
    t->in_flight--;
    const sd_bus_error *e = sd_bus_message_get_error(reply);
    if (!e) {
        t->ok++;
    } else {
        t->errors++;
        // sd-bus makes these itself when no answer came in time.
        if (sd_bus_error_has_name(e, SD_BUS_ERROR_NO_REPLY) || sd_bus_error_has_name(e, SD_BUS_ERROR_TIMEOUT))
            t->lost++;
        count_error(t, e->name ? e->name : "?");
    }
    return 0;
}

static void wait_until(sd_bus *bus, struct tally *t, unsigned most_in_flight) {
    while (t->in_flight > most_in_flight) {
        int r = sd_bus_process(bus, NULL);
        if (r < 0) {
            fprintf(stderr, "bus-load: %s\n", strerror(-r));
            exit(1);
        }
        if (r == 0) sd_bus_wait(bus, UINT64_MAX);
    }
}

static void send_call(sd_bus *bus, sd_bus_message *m, struct tally *t) {
    int r = sd_bus_call_async(bus, NULL, m, on_reply, t, 60 * 1000000ULL);
    sd_bus_message_unref(m);
    if (r < 0) {
        fprintf(stderr, "bus-load: send: %s\n", strerror(-r));
        exit(1);
    }
    t->sent++;
    t->in_flight++;
}

static sd_bus_message *new_call(sd_bus *bus, const char *interface, const char *member) {
    sd_bus_message *m = NULL;
    int r = sd_bus_message_new_method_call(bus, &m, NAME, PATH, interface, member);
    if (r < 0) {
        fprintf(stderr, "bus-load: %s: %s\n", member, strerror(-r));
        exit(1);
    }
    return m;
}

// Whether the i-th of total messages is one of the `wanted` of a kind that
// has had `done` so far: spread evenly.
static int due(unsigned done, unsigned wanted, unsigned i, unsigned total) {
    return done < wanted && (unsigned long)done * total <= (unsigned long)i * wanted;
}

static void load(sd_bus *bus, struct tally *t, unsigned writes, unsigned reads, unsigned calibrations,
                 unsigned in_flight, double first, double step) {
    unsigned total = writes + reads + calibrations;
    for (unsigned i = 0, w = 0, r = 0, c = 0; i < total; i++) {
        sd_bus_message *m;
        // The kind due by the even spread, else any kind with some left.
        int calibrate = due(c, calibrations, i, total), read = !calibrate && due(r, reads, i, total);
        if (!calibrate && !read && w >= writes) {
            read = r < reads;
            calibrate = !read;
        }
        if (calibrate) {
            m = new_call(bus, INTERFACE, "Calibrate");
            c++;
        } else if (read) {
            m = new_call(bus, "org.freedesktop.DBus.Properties", "GetAll");
            sd_bus_message_append(m, "s", INTERFACE);
            r++;
        } else {
            m = new_call(bus, "org.freedesktop.DBus.Properties", "Set");
            sd_bus_message_append(m, "ssv", INTERFACE, "Sensitivity", "d", first + step * w);
            w++;
        }
        send_call(bus, m, t);
        wait_until(bus, t, in_flight - 1);
    }
    wait_until(bus, t, 0);
}

static void garbage(sd_bus *bus, struct tally *t, size_t huge) {
    char *big = malloc(huge + 1);
    if (!big) exit(1);
    memset(big, 'x', huge);
    big[huge] = 0;
    sd_bus_message *m;

    m = new_call(bus, "org.freedesktop.DBus.Properties", "Set");  // Enabled is a boolean
    sd_bus_message_append(m, "ssv", INTERFACE, "Enabled", "s", "yes");
    send_call(bus, m, t);
    m = new_call(bus, "org.freedesktop.DBus.Properties", "Set");  // Sensitivity out of range
    sd_bus_message_append(m, "ssv", INTERFACE, "Sensitivity", "d", 1e300);
    send_call(bus, m, t);
    m = new_call(bus, "org.freedesktop.DBus.Properties", "Set");  // read-only
    sd_bus_message_append(m, "ssv", INTERFACE, "Active", "b", 1);
    send_call(bus, m, t);
    m = new_call(bus, "org.freedesktop.DBus.Properties", "Set");  // no such property, a huge name
    sd_bus_message_append(m, "ssv", INTERFACE, big, "s", big);
    send_call(bus, m, t);
    m = new_call(bus, "org.freedesktop.DBus.Properties", "Set");  // no value at all
    sd_bus_message_append(m, "ss", INTERFACE, "Enabled");
    send_call(bus, m, t);
    m = new_call(bus, "org.freedesktop.DBus.Properties", "Get");  // another interface
    sd_bus_message_append(m, "ss", "org.example.Nothing", "Enabled");
    send_call(bus, m, t);
    m = new_call(bus, INTERFACE, "Calibrate");  // arguments it takes none of
    sd_bus_message_append(m, "s", big);
    send_call(bus, m, t);
    m = new_call(bus, INTERFACE, "Nope");
    send_call(bus, m, t);
    m = new_call(bus, "org.freedesktop.DBus.Introspectable", "Introspect");  // arguments again
    sd_bus_message_append(m, "u", 7);
    send_call(bus, m, t);
    wait_until(bus, t, 0);
    free(big);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bus-load load|garbage [options]\n");
        return 2;
    }
    const char *mode = argv[1];
    unsigned writes = 100, reads = 0, calibrations = 0, in_flight = 8;
    double first = 0.25, step = 0.001;
    size_t huge = 1 << 20;
    static const struct option options[] = {
        {"writes", required_argument, NULL, 'w'},    {"calibrations", required_argument, NULL, 'c'},
        {"reads", required_argument, NULL, 'r'},
        {"in-flight", required_argument, NULL, 'k'}, {"first", required_argument, NULL, 'f'},
        {"step", required_argument, NULL, 's'},      {"huge", required_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int opt;
    optind = 2;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'w': writes = strtoul(optarg, NULL, 10); break;
        case 'c': calibrations = strtoul(optarg, NULL, 10); break;
        case 'r': reads = strtoul(optarg, NULL, 10); break;
        case 'k': in_flight = strtoul(optarg, NULL, 10); break;
        case 'f': first = strtod(optarg, NULL); break;
        case 's': step = strtod(optarg, NULL); break;
        case 'h': huge = strtoul(optarg, NULL, 10); break;
        default: return 2;
        }
    }
    if (in_flight == 0) in_flight = 1;

    sd_bus *bus = NULL;
    int r = sd_bus_open_system(&bus);
    if (r < 0) {
        fprintf(stderr, "bus-load: system bus: %s\n", strerror(-r));
        return 1;
    }
    struct tally t = {0};
    if (strcmp(mode, "load") == 0)
        load(bus, &t, writes, reads, calibrations, in_flight, first, step);
    else if (strcmp(mode, "garbage") == 0)
        garbage(bus, &t, huge);
    else
        return 2;
    for (unsigned i = 0; i < t.name_count; i++) printf("error %s %u\n", t.names[i].name, t.names[i].count);
    printf("summary sent=%u ok=%u errors=%u lost=%u\n", t.sent, t.ok, t.errors, t.lost);
    sd_bus_flush_close_unref(bus);
    return t.lost == 0 && t.ok + t.errors == t.sent ? 0 : 1;
}
