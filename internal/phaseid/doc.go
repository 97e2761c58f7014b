// Package phaseid holds the two string identities of a phase, as distinct
// types so the compiler keeps them apart.
//
// A phase has three identities:
//
//   - ID, the normalized id ("2a"): the key of everything. Maps, the
//     phase files and branches (through state.FileIDOf), the
//     Autobuild-Phase trailers, dependencies and the event stream's
//     phase_id are all in IDs. Only plan.NormalizeID makes one from text
//     as written; other IDs come back from where one was stored (state
//     files, trailers, the event stream).
//   - Display, the id as the user wrote it ("2A", "2-A"): for people only,
//     in labels and messages. It never keys anything: "2A" and "2-A"
//     name the same phase.
//   - state.FileID, the ID made safe for file and branch names.
//
// Both are plain strings underneath, so JSON and every file format are
// unchanged; the types only stop a display id from being looked up as an
// id, or an id from being shown where the plan's spelling belongs. Convert
// to or from string only at a boundary: parsing the plan, reading a trailer
// or a command-line argument.
//
// The package is a leaf so the data packages (state, event) can use the
// types without depending on the plan parser.
package phaseid
