import ArgumentParser
import LoopHunterShip

extension CompressionMode: ExpressibleByArgument {}
