import ArgumentParser
import LoopHunterShip

extension PayloadFormat: ExpressibleByArgument {}
