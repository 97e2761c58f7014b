package failreport

// ReviewRejected means a person rejected the phase's change in review
// (--review, `autobuild review --reject --note TEXT`): the note is the
// retry's context, like a gate's failure, and the retry is counted as usual.
const ReviewRejected Type = "review_rejected"
