import ArgumentParser
import LoopHunterReport

extension OutputFormat: ExpressibleByArgument {}
