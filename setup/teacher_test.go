package setup

import (
	"strings"
	"testing"
)

// teacherConfig is the embedded defaults with a depth-1 teacher playing
// generation 0.
func teacherConfig(t *testing.T) Config {
	t.Helper()
	c, err := DefaultConfig("fbgc")
	if err != nil {
		t.Fatal(err)
	}
	c.Teacher = TeacherConfig{Enabled: true, Games: 8, Depth: 1, MaxPlies: 40, RandomPlies: 4,
		Policy: "softmax", Temperature: 0.5}
	return c
}

func TestTeacherConfigRefusesBadSettingsNamingTheKey(t *testing.T) {
	for _, tc := range []struct {
		key  string
		edit func(*TeacherConfig)
	}{
		{"teacher.depth", func(c *TeacherConfig) { c.Depth = -1 }},
		{"teacher.depth", func(c *TeacherConfig) { c.Depth = 0 }},
		{"teacher.depth", func(c *TeacherConfig) { c.Depth = 9 }},
		{"teacher.games", func(c *TeacherConfig) { c.Games = 0 }},
		{"teacher.games", func(c *TeacherConfig) { c.Enabled, c.Games = false, -3 }},
		{"teacher.max_plies", func(c *TeacherConfig) { c.MaxPlies = 10 }},
		{"teacher.max_plies", func(c *TeacherConfig) { c.RandomPlies, c.MaxPlies = 30, 40 }},
		{"teacher.random_plies", func(c *TeacherConfig) { c.RandomPlies = -1 }},
		{"teacher.policy", func(c *TeacherConfig) { c.Policy = "visits" }},
		{"teacher.temperature", func(c *TeacherConfig) { c.Temperature = 0 }},
		{"teacher.train_steps", func(c *TeacherConfig) { c.TrainSteps = -1 }},
		{"teacher.value_scale", func(c *TeacherConfig) { c.ValueScale = -0.1 }},
		{"teacher.value_scale", func(c *TeacherConfig) { c.ValueScale = 11 }},
	} {
		c := teacherConfig(t)
		tc.edit(&c.Teacher)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: Validate() = %v, want an error naming it", tc.key, err)
		}
	}
	c := teacherConfig(t)
	c.Teacher = TeacherConfig{} // a run made before the teacher existed
	if err := c.Validate(); err != nil {
		t.Errorf("no [teacher] table: %v", err)
	}
	for _, variant := range []string{"fbgc", "fbgc-superpower", "chess"} {
		d, err := DefaultConfig(variant)
		if err != nil || !d.Teacher.Enabled {
			t.Errorf("%s: the embedded defaults %v, teacher %+v; want the teacher on", variant, err, d.Teacher)
		}
	}
}
