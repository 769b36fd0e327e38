// swift-tools-version:6.0
// tiltscroll: turn the tilt of a convertible laptop or tablet into smooth scrolling.
import PackageDescription

let package = Package(
    name: "tiltscroll",
    products: [
        .executable(name: "tiltscrolld", targets: ["tiltscrolld"])
    ],
    targets: [
        // Pure Swift: everything about how scrolling feels. No I/O, no clock.
        .target(name: "ScrollPhysics"),

        // The C modules hold headers, and C only where Swift cannot call the C
        // as it stands (each says why, and when it could go).

        // libudev (discovery, properties, the udev monitor) and signalfd.
        .systemLibrary(
            name: "CIIO",
            path: "Sources/CIIO",
            pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]
        ),

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

        .executableTarget(
            name: "tiltscrolld",
            dependencies: ["ScrollPhysics", "CIIO", "CLibevdev", "CEvdev", "CSystemd", "CSdBus"],
            // The demo trace, as bytes in the program (DemoTrace.swift). It
            // stays where the real-kernel harness records it, the one copy.
            resources: [.embedInCode("../../Tests/realkernel/traces/kxcjk-1013.trace")],
            swiftSettings: [
                // The loop's state lives in one class; run-time exclusivity
                // checks on its properties cost about 1,500 instructions per
                // sample (callgrind, Benchmarks/daemon-bench). The loop is
                // single-threaded and debug builds (the tests) keep them.
                .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
            ]
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
        .testTarget(name: "tiltscrolldTests", dependencies: ["tiltscrolld", "ScrollPhysics"]),
    ]
)
