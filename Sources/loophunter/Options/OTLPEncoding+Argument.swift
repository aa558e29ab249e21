import ArgumentParser
import LoopHunterShip

extension OTLPEncoding: ExpressibleByArgument {}
