package state

// LineVerification is what the run did to keep its line green
// (docs/running.md, "The line stays green"), across its sessions.
type LineVerification struct {
	// Groups counts the combinations of landings verified together;
	// Conflicts those that failed and were blamed on a phase
	// (integration_conflict).
	Groups    int `json:"groups"`
	Conflicts int `json:"conflicts"`
	// RedBase names the gates that failed on the run's base, when the run
	// went on with --allow-red-base.
	RedBase []string `json:"red_base,omitempty"`
}
