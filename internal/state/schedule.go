package state

// Schedule is how a run orders its phases (docs/running.md). run.json
// keeps it as its plain string; a run recorded before schedules existed
// has none, which is ScheduleBatches.
type Schedule string

// The schedules.
const (
	// ScheduleBatches runs the plan's topological layers one after another,
	// with a barrier between them.
	ScheduleBatches Schedule = "batches"
	// ScheduleEager starts a phase as soon as all its dependencies have
	// landed.
	ScheduleEager Schedule = "eager"
)

// Schedules lists the schedules, the default first, for help texts and
// completion.
func Schedules() []Schedule { return []Schedule{ScheduleBatches, ScheduleEager} }

// ParseSchedule checks a schedule given by a person (a flag, a config
// file); "" is not a schedule.
func ParseSchedule(s string) (Schedule, error) {
	return parseChoice(s, Schedules(), "schedule")
}

// ScheduleNames is "batches, eager", for messages.
func ScheduleNames() string { return choiceNames(Schedules()) }

// OrDefault is s, or ScheduleBatches when s is empty (a run recorded before
// schedules existed, a flag left out).
func (s Schedule) OrDefault() Schedule {
	if s == "" {
		return ScheduleBatches
	}
	return s
}
