package datasets

import "strings"

// TeacherPrefix starts the model column of every game a search teacher
// played rather than the agent (package teacher writes "teacher:alphabeta:2"):
// such games carry the teacher's piece table, so piece-value fits and
// variant comparisons leave them out by default.
const TeacherPrefix = "teacher:"

// IsTeacherModel reports whether a model column names a search teacher.
func IsTeacherModel(model string) bool { return strings.HasPrefix(model, TeacherPrefix) }

// Teacher reports whether g was played by a search teacher.
func (g *GameRecord) Teacher() bool { return IsTeacherModel(g.Model) }
