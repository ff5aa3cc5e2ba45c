import Foundation

/// The benchmark driver: runs every (workload, pass, engine) in child processes,
/// passes interleaved so that drifting machine load hits every engine alike.
enum ParentMain {
    static func run(_ options: Options) -> Int32 {
        if options.dalCost {
            do {
                print(try DALCost.run(iterations: options.passes * 200))
                return 0
            } catch {
                log("dal cost: FAILED \(error)")
                return 1
            }
        }
        if options.remoteLatency {
            do {
                print(try RemoteLatency.run(saves: options.saves))
                return 0
            } catch {
                log("remote latency: FAILED \(error)")
                return 1
            }
        }
        if options.frcCost {
            do {
                print(try FRCCost.run(rows: options.rows, passes: options.passes))
                return 0
            } catch {
                log("frc cost: FAILED \(error)")
                return 1
            }
        }
        if options.listsCost {
            do {
                print(try ListsCost.run(items: options.items, passes: options.passes))
                return 0
            } catch {
                log("lists cost: FAILED \(error)")
                return 1
            }
        }
        if options.historyCost {
            do {
                print(try HistoryCost.run(rows: options.rows, passes: options.passes))
                return 0
            } catch {
                log("history cost: FAILED \(error)")
                return 1
            }
        }
        if options.openCost {
            do {
                print(try OpenCost.run(rows: options.rows, passes: options.passes))
                return 0
            } catch {
                log("open cost: FAILED \(error)")
                return 1
            }
        }
        let engines = options.engines
        var results = Results()
        let loadBefore = LoadAverage.current()
        for workload in options.workloads {
            for pass in 1...options.passes {
                for engine in engines where workload.runs(on: engine) && results.error(workload, engine) == nil {
                    do {
                        let report = try ChildLauncher.measure(engine: engine, workload: workload, rows: options.rows)
                        results.add(report, workload: workload, engine: engine)
                        let peak = report.peakMiB.map { String(format: "%.1f MiB", $0) } ?? "? MiB"
                        log("\(workload.rawValue) pass \(pass)/\(options.passes) \(engine.rawValue): \(ResultsTable.format(report.seconds)) s, \(peak)")
                    } catch {
                        results.fail("\(error)", workload: workload, engine: engine)
                        log("\(workload.rawValue) pass \(pass)/\(options.passes) \(engine.rawValue): FAILED \(error)")
                    }
                }
            }
        }
        let load = "\(loadBefore) at start, \(LoadAverage.current()) at end"
        print(SetupReport(options: options, results: results, loadAverages: load).render())
        print("")
        print(ResultsTable(options: options, results: results).render())
        print("")
        print(SpreadTable(options: options, results: results).render())
        print("")
        print(ChecksReport(options: options, results: results).render())
        if options.measuresBytes {
            do {
                let bytes = try ChildLauncher.measureBytes(rows: options.rows)
                log("bytes per object measured")
                print("")
                print(bytes.render())
            } catch {
                log("bytes per object: FAILED \(error)")
            }
        }
        return 0
    }

    static func log(_ message: String) {
        FileHandle.standardError.write(Data("[ocd-bench] \(message)\n".utf8))
    }
}
