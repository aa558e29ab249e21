import LoopHunterReport

extension CorpusProgram.Truth {
    /// Whether `report` names the looping object the truth states: its object or one of the loop's
    /// members, by a name the truth gives, else by a type.
    package func isNamed(in report: Report) -> Bool {
        let objects = [(report.object.type, report.object.name)] + report.loopMembers.map { ($0.type, $0.name) }
        return objects.contains { type, name in name.map { names.contains($0) } ?? false || widgetTypes.contains(type) }
    }
}
