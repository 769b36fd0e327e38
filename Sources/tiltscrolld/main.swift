import Glibc

// `--list-devices`: the accelerometers discovery finds, with where each
// setting came from. (The lead's full command line replaces this file.)
if CommandLine.arguments.dropFirst().contains("--list-devices") {
    switch DeviceDiscovery.enumerate(matrixOverride: nil) {
    case .failure(let error):
        Log.error(error.message)
        exit(1)
    case .success(let devices) where devices.isEmpty:
        if case .failure(let error) = DeviceDiscovery.choose(from: devices, name: nil) { Log.error(error.message) }
        exit(1)
    case .success(let devices):
        print(renderDeviceTable(devices), terminator: "")
        exit(0)
    }
}

print("tiltscrolld")
