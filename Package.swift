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

        // Thin C shim over libudev: discovery, properties, the udev monitor.
        .target(
            name: "CIIO",
            linkerSettings: [.linkedLibrary("udev")]
        ),

        // libevdev as Debian ships it (headers live under libevdev-1.0/).
        .systemLibrary(
            name: "CLibevdev",
            path: "Sources/CLibevdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev"])]
        ),

        // Thin C shim over libevdev: the uinput scroll device, one write per frame,
        // and reading input devices such as the tablet-mode switch.
        .target(
            name: "CEvdev",
            dependencies: ["CLibevdev"]
        ),

        // sd_notify from libsystemd.
        .systemLibrary(
            name: "CSystemd",
            path: "Sources/CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),

        .executableTarget(
            name: "tiltscrolld",
            dependencies: ["ScrollPhysics", "CIIO", "CEvdev", "CSystemd"],
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

        // How scrolling feels, per synthetic human scenario: detents, onset and
        // stop latency, speed ripple, sample demand (Benchmarks/README.md).
        .executableTarget(
            name: "feel-report",
            dependencies: ["ScrollPhysics"],
            path: "Benchmarks/FeelReport"
        ),

        // Traces/ holds golden trace inputs and outputs, read via #filePath.
        .testTarget(name: "ScrollPhysicsTests", dependencies: ["ScrollPhysics"], exclude: ["Traces"]),
        .testTarget(name: "tiltscrolldTests", dependencies: ["tiltscrolld", "ScrollPhysics"]),
    ]
)
