package experiment

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"repair/internal/inputerr"
)

// PlotFormats are the file formats every plot is saved in.
var PlotFormats = []string{"png", "svg"}

// Plots draws the report's figures into dir (created if needed) and
// returns the files written:
//
//   - success-PARAM.{png,svg} for each varied parameter, and
//     success-bug.{png,svg}: the success rate per value with its 95% Wilson
//     interval as error bars, each point labelled plausible/trials;
//   - evaluations-to-fix.{png,svg}: a horizontal box plot per
//     configuration of the evaluations until the first plausible patch of
//     its plausible trials, with every trial drawn as a dot (a log scale
//     when the values span more than two orders of magnitude).
func (rep *Report) Plots(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, inputerr.New("--plots %s: %v", dir, unwrapPath(err))
	}
	var files []string
	save := func(p *plot.Plot, base string, w, h vg.Length) error {
		for _, ext := range PlotFormats {
			f := filepath.Join(dir, base+"."+ext)
			if err := p.Save(w, h, f); err != nil {
				return fmt.Errorf("save %s: %w", f, err)
			}
			files = append(files, f)
		}
		return nil
	}
	for _, t := range rep.Tables {
		if t.By == "configuration" {
			continue
		}
		if t.By == "bug" {
			t = Table{By: t.By, Rows: trimCommonDir(t.Rows)}
		}
		p, err := successPlot(t)
		if err != nil {
			return files, err
		}
		w := vg.Length(max(4, 0.6*float64(len(t.Rows))+1.5)) * vg.Inch
		if err := save(p, "success-"+fileSafe(t.By), min(w, 14*vg.Inch), 4*vg.Inch); err != nil {
			return files, err
		}
	}
	configs := rep.configs
	p, err := boxPlot(configs)
	if err != nil {
		return files, err
	}
	h := vg.Length(max(3, 0.45*float64(len(configs))+1.5)) * vg.Inch
	if err := save(p, "evaluations-to-fix", 8*vg.Inch, min(h, 20*vg.Inch)); err != nil {
		return files, err
	}
	return files, nil
}

// trimCommonDir drops the folders all values share ("/data/bench/a",
// "/data/bench/b" become "a", "b"), to keep axis labels short.
func trimCommonDir(rows []Row) []Row {
	if len(rows) < 2 {
		return rows
	}
	prefix := rows[0].Value
	for _, r := range rows[1:] {
		for !strings.HasPrefix(r.Value, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	cut := strings.LastIndexByte(prefix, '/') + 1
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = r
		out[i].Value = r.Value[cut:]
	}
	return out
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// rateErrors are success rates with their Wilson intervals, for
// plotter.YErrorBars.
type rateErrors struct{ rows []Row }

func (r rateErrors) Len() int { return len(r.rows) }
func (r rateErrors) XY(i int) (float64, float64) {
	return float64(i), zeroNaN(r.rows[i].Rate)
}
func (r rateErrors) YError(i int) (float64, float64) {
	row := r.rows[i]
	if row.Trials == 0 {
		return 0, 0
	}
	return row.Rate - row.Low, row.High - row.Rate
}

func zeroNaN(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

var (
	blue = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	gray = color.RGBA{R: 90, G: 90, B: 90, A: 255}
)

func successPlot(t Table) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Success rate by %s (95%% Wilson interval)", t.By)
	p.X.Label.Text = t.By
	p.Y.Label.Text = "plausible / trials"
	p.Y.Min, p.Y.Max = 0, 1.08
	p.Y.Tick.Marker = percentTicks{}
	p.Add(plotter.NewGrid())
	data := rateErrors{t.Rows}
	bars, err := plotter.NewYErrorBars(data)
	if err != nil {
		return nil, err
	}
	bars.LineStyle.Color = blue
	bars.LineStyle.Width = vg.Points(1.2)
	bars.CapWidth = vg.Points(10)
	pts, err := plotter.NewScatter(data)
	if err != nil {
		return nil, err
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: blue, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
	var names []string
	labels := plotter.XYLabels{}
	for i, r := range t.Rows {
		names = append(names, r.Value)
		labels.XYs = append(labels.XYs, plotter.XY{X: float64(i), Y: zeroNaN(r.High)})
		labels.Labels = append(labels.Labels, fmt.Sprintf("%d/%d", r.Plausible, r.Trials))
	}
	lab, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].XAlign = draw.XCenter
		lab.TextStyle[i].YAlign = draw.YBottom
		lab.TextStyle[i].Color = gray
		lab.TextStyle[i].Font.Size = vg.Points(9)
	}
	lab.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(bars, pts, lab)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	if long(names) {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	return p, nil
}

func long(names []string) bool {
	total := 0
	for _, n := range names {
		total += len(n)
	}
	return total > 60
}

// percentTicks marks 0 to 100% by 20.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for v := 0; v <= 100; v += 10 {
		x := float64(v) / 100
		if x < lo-1e-9 || x > hi+1e-9 {
			continue
		}
		label := ""
		if v%20 == 0 {
			label = fmt.Sprintf("%d%%", v)
		}
		ts = append(ts, plot.Tick{Value: x, Label: label})
	}
	return ts
}

func boxPlot(rows []Row) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Evaluations to the first plausible patch, per configuration"
	p.X.Label.Text = "evaluations (plausible trials; one dot per trial)"
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		for _, v := range r.fixEvals {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	logScale := lo > 0 && hi/lo > 100
	if logScale {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Label.Text += ", log scale"
	}
	p.Add(plotter.NewGrid())
	var names []string
	n := len(rows)
	for i, r := range rows {
		// The first row at the top.
		y := float64(n - 1 - i)
		names = append(names, "")
		vals := plotter.Values(r.fixEvals)
		if len(vals) > 0 {
			b, err := plotter.NewBoxPlot(vg.Points(18), y, vals)
			if err != nil {
				return nil, err
			}
			b.Horizontal = true
			b.BoxStyle.Color = blue
			b.MedianStyle.Color = blue
			b.MedianStyle.Width = vg.Points(2)
			b.GlyphStyle.Radius = 0 // outliers are among the dots
			p.Add(b)
			var xys plotter.XYs
			for j, v := range r.fixEvals {
				// Spread equal values a little, deterministically.
				jit := (float64(j%5) - 2) * 0.06
				xys = append(xys, plotter.XY{X: v, Y: y + jit})
			}
			s, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			s.GlyphStyle = draw.GlyphStyle{Color: color.NRGBA{R: 214, G: 39, B: 40, A: 200}, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
			p.Add(s)
		}
	}
	for i, r := range rows {
		names[n-1-i] = fmt.Sprintf("%s  (%d/%d)", r.Value, r.Plausible, r.Trials)
	}
	p.NominalY(names...)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	if math.IsInf(lo, 1) { // no plausible trial at all
		p.X.Min, p.X.Max = 0, 1
		p.Title.Text += " (no plausible trial)"
	} else if logScale {
		p.X.Min, p.X.Max = lo/1.3, hi*1.3
	} else {
		// Room for the dots at the ends.
		p.X.Min, p.X.Max = 0, hi*1.04+1
		p.X.Tick.Marker = intTicks{}
	}
	return p, nil
}

// intTicks are the default ticks labelled without needless decimals
// ("250", not "250.00").
type intTicks struct{}

func (intTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', -1, 64)
		}
	}
	return ts
}
