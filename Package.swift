// swift-tools-version:6.0
// tiltscroll: turn the tilt of a convertible laptop or tablet into smooth scrolling.
import PackageDescription

let package = Package(
    name: "tiltscroll",
    products: [
        .executable(name: "tiltscrolld", targets: ["tiltscrolld"]),
        .executable(name: "tiltscrollctl", targets: ["tiltscrollctl"]),
    ],
    targets: [
        // Pure Swift: everything about how scrolling feels. No I/O, no clock.
        .target(name: "ScrollPhysics"),

        // The C modules hold headers, and C only where Swift cannot call the C
        // as it stands (each says why, and when it could go). Each is named by
        // what it holds.

        // libudev: discovery, device properties, the udev monitor.
        .systemLibrary(
            name: "CUdev",
            path: "Sources/CUdev",
            pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]
        ),

        // Linux and glibc headers Glibc's Swift module lacks: signalfd, mallopt.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        // libevdev as Debian ships it (headers live under libevdev-1.0/): the
        // uinput scroll device, and reading input devices such as the
        // tablet-mode switch.
        .systemLibrary(
            name: "CLibevdev",
            path: "Sources/CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),

        // The kernel's input event record, mirrored for Swift (struct layout).
        .target(name: "CEvdev"),

        // sd_notify and sd-bus from libsystemd.
        .systemLibrary(
            name: "CSystemd",
            path: "Sources/CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),

        // The vtable entries of sd-bus, which only its C macros can make.
        .target(
            name: "CSdBus",
            dependencies: ["CSystemd"]
        ),

        // What the daemon and its client share: system calls, text escaping,
        // the configuration file, finding accelerometers, the bus's wire
        // format and its property table, the daemon's snapshot and the
        // monitor's records, the PID file.
        .target(
            name: "TiltScrollCommon",
            dependencies: ["ScrollPhysics", "CUdev", "CLinux", "CSystemd"],
            swiftSettings: [
                // The daemon calls into this module every round (file
                // descriptors, the poller, the snapshot). Without its bodies
                // the optimizer cannot specialize them: generic code ran
                // unspecialized and allocated (a coroutine frame per array
                // read), about 1.6 heap allocations per sample held still
                // (Benchmarks/daemon-bench). Exclusivity as in tiltscrolld.
                // Its declarations are `public`, not `package`: Swift offers
                // other modules the bodies of public code only (package code
                // needs library evolution for that), and every small call the
                // loop made into this module (the clock, the poller, a file
                // read, the snapshot's comparison) stayed a call. Nothing
                // outside this package can import the module: it is no product.
                .unsafeFlags(
                    ["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release))
            ]
        ),

        // The daemon: its loop and the parts it drives.
        .executableTarget(
            name: "tiltscrolld",
            dependencies: [
                "ScrollPhysics", "TiltScrollCommon", "CUdev", "CLinux", "CLibevdev", "CEvdev", "CSystemd", "CSdBus",
            ],
            swiftSettings: [
                // The loop's state lives in one class; run-time exclusivity
                // checks on its properties cost about 1,500 instructions per
                // sample (callgrind, Benchmarks/daemon-bench). The loop is
                // single-threaded and debug builds (the tests) keep them.
                .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
            ],
            linkerSettings: [
                // Swift links an executable with --export-dynamic, so every
                // public declaration (all of TiltScrollCommon, the client's
                // parts included: 3,037 symbols) stayed in the daemon as a
                // dynamic symbol that --gc-sections must keep. Nothing loads
                // into the daemon or looks its symbols up. Without them the
                // text is 0.27 MB smaller, and about 100 kB less of it is
                // resident while scrolling (Benchmarks/daemon-bench).
                .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(configuration: .release))
            ]
        ),

        // The client beside the daemon: status, the switch, re-centring, the
        // monitor, and the tools a person runs by hand (demo, replay, list-devices).
        .executableTarget(
            name: "tiltscrollctl",
            dependencies: ["ScrollPhysics", "TiltScrollCommon", "CSystemd"],
            // The demo trace, as bytes in the program (DemoTrace.swift). It
            // stays where the real-kernel harness records it, the one copy.
            resources: [.embedInCode("../../Tests/realkernel/traces/kxcjk-1013.trace")]
        ),

        // Instructions and heap allocations per sample through the whole physics
        // pipeline; run by Benchmarks/physics-bench.sh under valgrind.
        .executableTarget(
            name: "physics-bench",
            dependencies: ["ScrollPhysics"],
            path: "Benchmarks/PhysicsBenchmark"
        ),

        // Synthetic people and sensors (sway, tremor, noise, walking, put-down,
        // pick-up): the model behind the physics tests and the feel report. Not
        // shipped: only tests and benchmarks depend on it.
        .target(name: "SyntheticMotion", dependencies: ["ScrollPhysics"], path: "Tests/SyntheticMotion"),

        // How scrolling feels, per synthetic human scenario: detents, onset and
        // stop latency, speed ripple, sample demand (Benchmarks/README.md).
        .executableTarget(
            name: "feel-report",
            dependencies: ["ScrollPhysics", "SyntheticMotion"],
            path: "Benchmarks/FeelReport"
        ),

        // Traces/ holds golden trace inputs and outputs, read via #filePath.
        .testTarget(
            name: "ScrollPhysicsTests", dependencies: ["ScrollPhysics", "SyntheticMotion"], exclude: ["Traces"]),
        .testTarget(
            name: "tiltscrolldTests",
            dependencies: ["tiltscrolld", "tiltscrollctl", "TiltScrollCommon", "ScrollPhysics", "SyntheticMotion"]),
    ]
)
