import Glibc
import TiltScrollCommon

/// Why a control request did not reach the daemon; the text tells the user what to do.
enum ControlError: Error, Equatable, CustomStringConvertible {
    /// No daemon was found; each entry says where it was looked for.
    case notRunning([String])
    /// The daemon runs as another user (root, under systemd).
    case permissionDenied(pid: Int32, request: ControlSignal)
    case failed(pid: Int32, SystemError)

    var description: String {
        switch self {
        case .notRunning(let places):
            return "tiltscrolld is not running (" + places.joined(separator: "; ") + ")"
        case .permissionDenied(let pid, let request):
            let name = String(cString: strsignal(request.signal))
            return "not allowed to signal tiltscrolld (pid \(pid)), which runs as another user: "
                + "run 'sudo \(request.command)' (\(name))"
        case .failed(let pid, let error):
            return "cannot signal tiltscrolld (pid \(pid)): \(error)"
        }
    }
}

/// Finds the running daemon and sends it a `ControlSignal` as a signal.
///
/// It asks systemd first (the main PID of tiltscrolld.service: exact, and
/// readable by any user), then the PID file of a daemon started by hand.
struct ControlClient {
    /// A place where a running daemon can be found.
    enum Locator: Equatable {
        case systemdUnit(String)
        case pidFile(PidFile)
    }

    static let unitName = "tiltscrolld.service"

    let locators: [Locator]

    /// systemd's tiltscrolld.service, then `/run/tiltscroll/tiltscrolld.pid`.
    static var standard: ControlClient {
        ControlClient(locators: [.systemdUnit(unitName), .pidFile(.fromEnvironment())])
    }

    /// Sends `request` to the running daemon; returns its PID.
    static func send(_ request: ControlSignal) throws(ControlError) -> Int32 {
        try standard.send(request)
    }

    func send(_ request: ControlSignal) throws(ControlError) -> Int32 {
        let pid = try findDaemon()
        do {
            try ProcessCalls.send(signal: request.signal, to: pid)
        } catch  where error.code == .notPermitted {
            throw .permissionDenied(pid: pid, request: request)
        } catch  where error.code == .noSuchProcess {
            throw .notRunning(["process \(pid) exited just now"])
        } catch {
            throw .failed(pid: pid, error)
        }
        return pid
    }

    /// The PID of the running daemon, or where it was looked for in vain.
    func findDaemon() throws(ControlError) -> Int32 {
        var places: [String] = []
        for locator in locators {
            switch locator {
            case .systemdUnit(let unit):
                switch SystemdUnitQuery.mainPID(ofUnit: unit) {
                case .mainPID(let pid): return pid
                case .noMainProcess: places.append("\(unit) is not active")
                case .unavailable(let why): places.append(why)
                }
            case .pidFile(let file):
                switch file.state() {
                case .running(let pid): return pid
                case .absent: places.append("no \(file.path)")
                case .stale(let why): places.append("stale \(file.path): \(why)")
                }
            }
        }
        throw .notRunning(places)
    }
}
