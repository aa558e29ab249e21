/// One line of `loophunter doctor`: what was checked, what was found, and what to do about it.
struct DoctorCheck {
    enum Outcome {
        /// Fine.
        case ok
        /// Works, but something is missing (colour: yellow); does not fail the doctor.
        case warning
        /// LoopHunter cannot work until this is fixed; the doctor exits 1.
        case failure
    }

    let name: String
    let outcome: Outcome
    let detail: String
    /// What to do, when the outcome is not ok.
    let fix: String?
}
