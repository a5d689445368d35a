/* report/timeline.js: the interactive timeline of trax's HTML report (plain ES2017, no
 * framework). Embedded in the page by report/lod.c with the data it draws; fetches nothing.
 *
 * Data (report/lod.c): #tl-meta (JSON: lanes, threads, states, slice names, counters, markers,
 * rule windows), #tl-lod0..2 (per lane, per column of 1024, 8192, 65536 columns over the trace:
 * busy and runnable shares and the key that ran longest, run-length coded, deflated, base64)
 * and #tl-tiles (one line per time tile: that tile's exact events, deflated, base64). A view
 * wider than the finest level's columns per pixel is drawn from the coarsest level that still
 * has a column per pixel; a narrower one from the exact events of the tiles in view, inflated
 * on first use. Either way the cost of a redraw follows the pixels, not the events.
 */
(function () {
	'use strict';
	const $ = (id) => document.getElementById(id);
	const canvas = $('tl-canvas');
	if (!canvas || !window.DecompressionStream)
		return;
	const M = JSON.parse($('tl-meta').textContent);
	const tip = $('tl-tip'), ctx = canvas.getContext('2d');
	const LABEL_W = 180, RULER_H = 40, LANE_H = 20, ROW_H = 15, CNT_H = 24, GAP = 2;
	const SPAN = M.span, TILE_NS = SPAN / M.ntiles;
	const STATE_NAME = { Running: 'running', R: 'runnable', 'R+': 'runnable (preempted)',
		S: 'sleeping', D: 'blocked (D)', I: 'idle', T: 'stopped', t: 'traced', X: 'dead',
		Z: 'zombie', P: 'parked', W: 'waking', K: 'wakekill' };
	const OTHER = '#b0b0b0';	/* tasks outside the palette, as in the static charts */
	const tileText = $('tl-tiles').textContent.split('\n');
	const threads = new Map(Object.entries(M.threads).map(([u, t]) => [+u, t]));
	const stateClass = M.states.map((s) => (s === 'Running' ? 1 : s[0] === 'R' ? 2 : 0));

	/* ---- decoding ---- */
	function b64(s) {
		const bin = atob(s), u = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++)
			u[i] = bin.charCodeAt(i);
		return u;
	}
	async function inflate(s) {
		const st = new Blob([b64(s)]).stream().pipeThrough(new DecompressionStream('deflate'));
		return new Uint8Array(await new Response(st).arrayBuffer());
	}
	class Reader {
		constructor(u) { this.u = u; this.p = 0; }
		get more() { return this.p < this.u.length; }
		v() {
			let x = 0, m = 1, b;
			do {
				b = this.u[this.p++];
				x += (b & 127) * m;
				m *= 128;
			} while (b & 128);
			return x;
		}
		z() { const x = this.v(); return x % 2 ? -(x + 1) / 2 : x / 2; }
		b() { return this.u[this.p++]; }
	}
	/* A level: per data lane, its runs (first column, length, a, b, key). */
	function decodeLevel(u) {
		const r = new Reader(u), out = new Map();
		while (r.more) {
			const lane = r.v(), n = r.v();
			const run = { c0: new Int32Array(n), len: new Int32Array(n), a: new Uint8Array(n),
				b: new Uint8Array(n), key: new Int32Array(n) };
			let c = 0;
			for (let i = 0; i < n; i++) {
				c += r.v();
				run.c0[i] = c;
				run.len[i] = r.v();
				run.a[i] = r.b();
				run.b[i] = r.b();
				run.key[i] = r.v();
				c += run.len[i];
			}
			out.set(lane, run);
		}
		return out;
	}
	/* A tile: per data lane, its events sorted by start (ns from the trace start). */
	function decodeTile(u) {
		const r = new Reader(u), out = new Map();
		while (r.more) {
			const lane = r.v(), n = r.v(), unit = r.v(), depth = M.lanes[lane].k === 'slice';
			const ev = { ts: new Float64Array(n), dur: new Float64Array(n),
				key: new Int32Array(n), depth: depth ? new Uint8Array(n) : null };
			/* Columns: gaps after the previous end, durations (both in units of unit ns),
			 * keys, depths. */
			for (let i = 0; i < n; i++)
				ev.ts[i] = r.z() * unit;
			let end = 0;
			for (let i = 0; i < n; i++) {
				ev.dur[i] = r.v() * unit;
				ev.ts[i] += end;
				end = ev.ts[i] + ev.dur[i];
			}
			for (let i = 0; i < n; i++)
				ev.key[i] = r.v();
			for (let i = 0; depth && i < n; i++)
				ev.depth[i] = Math.min(r.v(), 255);
			out.set(lane, ev);
		}
		return out;
	}
	const levels = M.levels.map(() => null), levelWait = M.levels.map(() => null);
	function level(l) {
		if (!levelWait[l])
			levelWait[l] = inflate($('tl-lod' + l).textContent).then((u) => {
				levels[l] = decodeLevel(u);
				schedule();
			});
		return levels[l];
	}
	const tiles = new Map();
	function tile(k) {
		const t = tiles.get(k);
		if (t)
			return t.data;
		const e = { data: null };
		tiles.set(k, e);
		inflate(tileText[k] || '').then((u) => { e.data = decodeTile(u); schedule(); });
		return null;
	}

	/* ---- lanes, top to bottom ---- */
	const lanes = [];
	M.lanes.forEach((l, i) => {
		if (l.k === 'cpu')
			lanes.push({ k: 'cpu', data: i, name: l.name, h: LANE_H, cpu: l.cpu, pin: true });
	});
	/* Counters of a thread go under its lane, the others (CPU frequency, idle, thermal
	 * zones, ...) under the CPUs. */
	const threadCounters = new Map();
	M.counters.forEach((c) => {
		let lo = Infinity, hi = -Infinity;
		for (const v of c.v) {
			if (v < lo) lo = v;
			if (v > hi) hi = v;
		}
		const lane = { k: 'counter', c, name: c.name, h: CNT_H, lo, hi };
		if (c.u !== undefined && M.lanes.some((l) => l.k === 'thread' && l.u === c.u)) {
			lane.name = '  ' + c.name.split(' ')[0];
			lane.u = c.u;
			if (!threadCounters.has(c.u))
				threadCounters.set(c.u, []);
			threadCounters.get(c.u).push(lane);
		} else {
			lanes.push(lane);
		}
	});
	M.lanes.forEach((l, i) => {
		if (l.k === 'thread') {
			const t = threads.get(l.u);
			lanes.push({ k: 'thread', data: i, u: l.u, h: LANE_H,
				name: (t ? t[2] + ' ' + t[0] : l.name) });
			lanes.push(...(threadCounters.get(l.u) || []));
		} else if (l.k === 'slice') {
			lanes.push({ k: 'slice', data: i, u: l.u, rows: Math.min(l.rows, 8),
				h: Math.min(l.rows, 8) * ROW_H, name: '  ' + l.name });
		}
	});
	/* The CPU lanes stay under the ruler (y from the top of the pinned band), the others
	 * scroll below them (y from the top of the scrolled lanes). With more CPUs than fit in
	 * half the canvas they scroll too. */
	let total = 0, pinH = 0;
	const MAX_H = 560;
	function layout() {
		let cpuH = 0;
		for (const l of lanes)
			if (l.k === 'cpu')
				cpuH += l.h + GAP;
		const pin = cpuH <= (MAX_H - RULER_H) / 2;
		total = 0;
		pinH = 0;
		for (const l of lanes) {
			l.pin = pin && l.k === 'cpu';
			if (l.pin) {
				l.y = pinH;
				pinH += l.h + GAP;
			} else {
				l.y = total;
				total += l.h + GAP;
			}
		}
	}
	layout();
	canvas.style.height = Math.min(MAX_H, RULER_H + pinH + total + 8) + 'px';
	/* A lane's top on the canvas. */
	function laneTop(l) {
		return l.pin ? RULER_H + l.y : RULER_H + pinH + l.y - scrollY;
	}
	/* Move a thread's lanes (its state, counters, slices) right under the CPUs. */
	function bringUp(pid) {
		const first = lanes.findIndex((l) => l.k === 'thread' && threads.get(l.u) &&
			threads.get(l.u)[0] === pid);
		if (first < 0)
			return;
		let end = first + 1;
		while (end < lanes.length && lanes[end].k !== 'thread' && lanes[end].u === lanes[first].u)
			end++;
		const group = lanes.splice(first, end - first);
		let at = 0;
		while (at < lanes.length && lanes[at].k === 'cpu')
			at++;
		lanes.splice(at, 0, ...group);
		layout();
		scrollY = 0;
	}

	/* ---- view ---- */
	let v0 = 0, v1 = SPAN, scrollY = 0, W = 0, H = 0, hover = null, query = '';
	const hl = new Set();
	const stats = { last: 0, max: 0, n: 0, samples: [] };
	function plotW() { return Math.max(10, W - LABEL_W); }
	function xOf(t) { return LABEL_W + (t - v0) / (v1 - v0) * plotW(); }
	function tOf(x) { return v0 + (x - LABEL_W) / plotW() * (v1 - v0); }
	function setView(a, b) {
		const minW = 200;
		if (b - a < minW) {
			const m = (a + b) / 2;
			a = m - minW / 2;
			b = m + minW / 2;
		}
		const pad = SPAN * 0.02;
		if (b - a > SPAN + 2 * pad) {
			a = -pad;
			b = SPAN + pad;
		}
		if (a < -pad) { b += -pad - a; a = -pad; }
		if (b > SPAN + pad) { a -= b - SPAN - pad; b = SPAN + pad; }
		v0 = a;
		v1 = b;
		schedule();
	}
	function zoom(f, x) {
		const t = x === undefined ? (v0 + v1) / 2 : tOf(x);
		setView(t - (t - v0) * f, t + (v1 - t) * f);
	}
	function pan(frac) {
		const d = (v1 - v0) * frac;
		setView(v0 + d, v1 + d);
	}
	function scrollLanes(dy) {
		const max = Math.max(0, total - (H - RULER_H - pinH));
		scrollY = Math.min(max, Math.max(0, scrollY + dy));
		schedule();
	}

	/* ---- formatting ---- */
	function fmtDur(ns) {
		const a = Math.abs(ns);
		if (a < 1e3) return ns.toFixed(0) + ' ns';
		if (a < 1e6) return (ns / 1e3).toFixed(3) + ' µs';
		if (a < 1e9) return (ns / 1e6).toFixed(3) + ' ms';
		return (ns / 1e9).toFixed(3) + ' s';
	}
	function fmtTs(ns) {
		return (ns < 0 ? '-' : '+') + (Math.abs(ns) / 1e9).toFixed(9) + ' s';
	}
	function taskName(u) {
		const t = threads.get(u);
		return t ? t[2] + ' (pid ' + t[0] + (t[1] !== null && t[1] !== t[0] ? ', tgid ' + t[1] :
			'') + ')' + (t[3] ? ', earlier ' + t[3] : '') : 'utid ' + u;
	}
	/* The static charts' colour of the thread's last name (report/lod.c writes it). */
	function taskColour(u) {
		const t = threads.get(u);
		return t && t[4] ? t[4] : OTHER;
	}
	/* Black or white, whichever reads better on a task colour. */
	function textOn(hex) {
		const v = parseInt(hex.slice(1), 16);
		const y = 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
		return y > 150 ? '#000' : '#fff';
	}
	function nameColour(k) {
		return 'hsl(' + ((k * 137.5) % 360) + ',55%,62%)';
	}

	/* ---- per pixel column accumulation (the same fold as report/lod.c) ---- */
	let A, B, CUR, BEST, CK, BK;
	function resetCols() {
		const n = plotW();
		if (!A || A.length !== n) {
			A = new Float32Array(n); B = new Float32Array(n); CUR = new Float32Array(n);
			BEST = new Float32Array(n); CK = new Int32Array(n); BK = new Int32Array(n);
		} else {
			A.fill(0); B.fill(0); CUR.fill(0); BEST.fill(0);
		}
	}
	function acc(s, e, key, wa, wb) {
		const npx = (v1 - v0) / plotW(), n = plotW();
		const fs = (s - v0) / npx, fe = (e - v0) / npx;
		let a = Math.floor(fs), b = Math.ceil(fe) - 1;
		if (a < 0) a = 0;
		if (b >= n) b = n - 1;
		for (let k = a; k <= b; k++) {
			const f = Math.min(fe, k + 1) - Math.max(fs, k);
			if (f <= 0)
				continue;
			A[k] += f * wa;
			B[k] += f * wb;
			if (CK[k] === key && CUR[k] > 0)
				CUR[k] += f;
			else {
				CK[k] = key;
				CUR[k] = f;
			}
			if (CUR[k] > BEST[k]) {
				BEST[k] = CUR[k];
				BK[k] = key;
			}
		}
	}
	function lowerBound(arr, x) {
		let lo = 0, hi = arr.length;
		while (lo < hi) {
			const m = (lo + hi) >> 1;
			if (arr[m] < x) lo = m + 1; else hi = m;
		}
		return lo;
	}
	/* The level for this view: the coarsest with a column per pixel, or -1: exact (also when
	 * the view holds two tiles or fewer: their events fold as fast as a summary). */
	function chooseLevel() {
		const npx = (v1 - v0) / plotW();
		if (Math.min(v1, SPAN) - Math.max(v0, 0) <= 2 * TILE_NS &&
		    Math.floor(Math.min(v1, SPAN - 1) / TILE_NS) - Math.floor(Math.max(v0, 0) / TILE_NS) < 2)
			return -1;
		for (let l = 0; l < M.levels.length; l++)
			if (SPAN / M.levels[l] <= npx)
				return l;
		return -1;
	}
	function visibleTiles() {
		const k0 = Math.max(0, Math.floor(v0 / TILE_NS));
		const k1 = Math.min(M.ntiles - 1, Math.floor(v1 / TILE_NS));
		const out = [];
		for (let k = k0; k <= k1; k++) {
			const t = tile(k);
			if (!t)
				return null;
			out.push([k, t]);
		}
		return out;
	}
	function foldLevel(lv, lane) {
		const run = lv.get(lane.data);
		if (!run)
			return;
		const cw = SPAN / M.levels[levelInUse];
		let i = Math.max(0, lowerBound(run.c0, v0 / cw) - 1);
		for (; i < run.c0.length; i++) {
			const s = run.c0[i] * cw, e = (run.c0[i] + run.len[i]) * cw;
			if (s > v1)
				break;
			if (e < v0)
				continue;
			acc(s, e, run.key[i], run.a[i] / 255, run.b[i] / 255);
		}
	}
	function laneClass(lane, key) {
		if (lane.k === 'thread')
			return stateClass[key] || 0;
		return 1;
	}
	function foldExact(tl, lane) {
		for (const [k, t] of tl) {
			const ev = t.get(lane.data);
			if (!ev)
				continue;
			const lo = k * TILE_NS, hi = (k + 1) * TILE_NS;
			for (let i = 0; i < ev.ts.length; i++) {
				if (ev.depth && ev.depth[i])
					continue;
				const s = Math.max(ev.ts[i], lo, v0), e = Math.min(ev.ts[i] + ev.dur[i], hi, v1);
				if (e <= s && !(ev.dur[i] === 0 && ev.ts[i] >= v0 && ev.ts[i] <= v1))
					continue;
				const c = laneClass(lane, ev.key[i]);
				acc(s, Math.max(e, s + 1e-9), ev.key[i], c === 1 ? 1 : 0, c === 2 ? 1 : 0);
			}
		}
	}

	/* ---- drawing ---- */
	let levelInUse = 0, mode = 'summary', pending = false;
	function schedule() {
		if (!pending) {
			pending = true;
			requestAnimationFrame(() => { pending = false; draw(); });
		}
	}
	function drawCols(lane, y) {
		const n = plotW(), h = lane.h;
		for (let k = 0; k < n;) {
			if (A[k] <= 0 && B[k] <= 0) { k++; continue; }
			const a = Math.min(1, A[k]), b = Math.min(1 - a, B[k]), key = BK[k];
			const pa = a > 0 ? Math.max(1, Math.round(a * h)) : 0;
			const pb = b > 0 ? Math.max(1, Math.round(b * h)) : 0;
			let r = 1;
			while (k + r < n && BK[k + r] === key &&
				Math.round(Math.min(1, A[k + r]) * h) === Math.round(a * h) &&
				Math.round(Math.min(1, B[k + r]) * h) === Math.round(b * h) &&
				(A[k + r] > 0) === (a > 0) && (B[k + r] > 0) === (b > 0))
				r++;
			const x = LABEL_W + k;
			if (lane.k === 'cpu') {
				ctx.globalAlpha = hl.size && !hl.has(key) ? 0.18 : 1;
				ctx.fillStyle = taskColour(key);
				ctx.fillRect(x, y + h - pa, r, pa);
			} else if (lane.k === 'thread') {
				ctx.fillStyle = '#3a9c4a';
				ctx.fillRect(x, y + h - pa, r, pa);
				ctx.fillStyle = '#f0a030';
				ctx.fillRect(x, y + h - pa - pb, r, pb);
			} else {
				ctx.fillStyle = nameColour(key);
				ctx.fillRect(x, y, r, Math.max(1, Math.min(ROW_H, pa)));
			}
			k += r;
		}
		ctx.globalAlpha = 1;
	}
	function label(text, x, y, w) {
		if (w < 30)
			return;
		ctx.save();
		ctx.beginPath();
		ctx.rect(x, y - 12, w, 16);
		ctx.clip();
		ctx.fillText(text, x + 3, y);
		ctx.restore();
	}
	/* Exact view: boundaries and names of the events wide enough to carry them. */
	function drawExactDetail(tl, lane, y) {
		ctx.font = '11px sans-serif';
		for (const [, t] of tl) {
			const ev = t.get(lane.data);
			if (!ev)
				continue;
			let i = Math.max(0, lowerBound(ev.ts, v0) - 1);
			while (i > 0 && ev.ts[i] + ev.dur[i] > v0) i--;
			for (; i < ev.ts.length && ev.ts[i] <= v1; i++) {
				const x0 = Math.max(LABEL_W, xOf(ev.ts[i]));
				const x1 = Math.min(W, xOf(ev.ts[i] + ev.dur[i]));
				if (lane.k === 'slice') {
					if (ev.depth[i] >= lane.rows || x1 < LABEL_W)
						continue;
					const ry = y + ev.depth[i] * ROW_H;
					ctx.fillStyle = nameColour(ev.key[i]);
					ctx.fillRect(x0, ry, Math.max(1, x1 - x0), ROW_H - 1);
					ctx.fillStyle = '#000';
					label(M.names[ev.key[i]], x0, ry + 11, x1 - x0);
					continue;
				}
				if (x1 - x0 < 4)
					continue;
				/* A task faded out by the search keeps no boundary and no name. */
				if (lane.k === 'cpu' && hl.size && !hl.has(ev.key[i]))
					continue;
				ctx.fillStyle = '#fff';
				ctx.fillRect(x0, y, 1, lane.h);
				if (lane.k === 'cpu') {
					const t2 = threads.get(ev.key[i]);
					ctx.fillStyle = textOn(taskColour(ev.key[i]));
					label(t2 ? t2[2] + ' ' + t2[0] : '?', x0, y + 14, x1 - x0);
				} else if (stateClass[ev.key[i]] === 0) {
					ctx.fillStyle = '#777';
					label(M.states[ev.key[i]], x0, y + 14, x1 - x0);
				}
			}
		}
	}
	function drawCounter(lane, y) {
		const c = lane.c, h = lane.h - 4, range = lane.hi - lane.lo || 1;
		const yv = (v) => y + 2 + h - (v - lane.lo) / range * h;
		let i = Math.max(0, lowerBound(c.ts, v0) - 1);
		ctx.strokeStyle = '#2060b0';
		ctx.beginPath();
		let started = false;
		for (; i < c.ts.length; i++) {
			const x = Math.max(LABEL_W, xOf(c.ts[i])), yy = yv(c.v[i]);
			if (!started) { ctx.moveTo(x, yy); started = true; } else ctx.lineTo(x, yy);
			const xn = i + 1 < c.ts.length ? Math.min(W, xOf(c.ts[i + 1])) : Math.min(W, xOf(SPAN));
			ctx.lineTo(xn, yy);
			if (c.ts[i] > v1)
				break;
		}
		ctx.stroke();
	}
	function niceStep(ns) {
		const p = Math.pow(10, Math.floor(Math.log10(ns)));
		for (const m of [1, 2, 5, 10])
			if (m * p >= ns) return m * p;
		return 10 * p;
	}
	function drawRuler() {
		ctx.fillStyle = '#f6f6f6';
		ctx.fillRect(0, 0, W, RULER_H);
		const step = niceStep((v1 - v0) / plotW() * 110);
		ctx.fillStyle = '#333';
		ctx.font = '11px sans-serif';
		ctx.strokeStyle = '#ccc';
		/* A tick's label starts right of it; one that would run past the right edge ends
		 * there instead, and is left out if it would then cover the one before. */
		let prevEnd = LABEL_W - 8;
		for (let t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
			const x = xOf(t);
			if (x < LABEL_W)
				continue;
			ctx.fillRect(x, RULER_H - 6, 1, 6);
			const s = fmtTs(t).replace(/0+ s$/, ' s').replace(/\. s$/, ' s');
			const w = ctx.measureText(s).width;
			const lx = Math.min(x + 2, W - 3 - w);
			if (lx < prevEnd + 4)
				continue;
			ctx.fillText(s, lx, RULER_H - 4);
			prevEnd = lx + w;
		}
		/* Markers: ticks in the band's upper half. */
		ctx.fillStyle = '#a0522d';
		let lo = lowerBound(M.markers.map((m) => m[0]), v0);
		for (let i = lo; i < M.markers.length && M.markers[i][0] <= v1; i++)
			ctx.fillRect(xOf(M.markers[i][0]) - 1, 2, 2, 12);
		ctx.fillStyle = '#222';
		ctx.fillText('time from trace start', 4, RULER_H - 4);
	}
	function drawWindows(top) {
		for (const w of M.windows) {
			if (w.start <= 0 && w.end >= SPAN)
				continue;
			const bad = w.verdict === 'fail' || w.verdict === 'error' || w.verdict === 'xpass';
			const x0 = Math.max(LABEL_W, xOf(w.start)), x1 = Math.min(W, xOf(w.end));
			if (x1 < LABEL_W || x0 > W)
				continue;
			ctx.fillStyle = bad ? 'rgba(217,52,43,0.10)' : 'rgba(46,139,87,0.07)';
			ctx.fillRect(x0, top, Math.max(1, x1 - x0), H - top);
			ctx.fillStyle = bad ? '#d9342b' : '#2e8b57';
			ctx.fillRect(x0, 14, Math.max(1, x1 - x0), 4);
			ctx.font = '10px sans-serif';
			label(w.name, x0, 28 - 2, x1 - x0);
		}
	}
	function draw() {
		const t0 = performance.now();
		const dpr = window.devicePixelRatio || 1;
		W = canvas.clientWidth;
		H = canvas.clientHeight;
		if (canvas.width !== Math.round(W * dpr) || canvas.height !== Math.round(H * dpr)) {
			canvas.width = Math.round(W * dpr);
			canvas.height = Math.round(H * dpr);
		}
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.fillStyle = '#fff';
		ctx.fillRect(0, 0, W, H);
		let l = chooseLevel(), tl = null;
		if (l < 0) {
			tl = visibleTiles();
			if (!tl)
				l = M.levels.length - 1;	/* inflating: the finest summary meanwhile */
		}
		let lv = null;
		if (l >= 0) {
			lv = level(l);
			for (let k = l; !lv && k >= 0; k--)
				if (levels[k]) { lv = levels[k]; l = k; }
		}
		levelInUse = l;
		mode = tl ? 'exact' : 'summary';
		drawRuler();
		const top = RULER_H;
		ctx.font = '11px sans-serif';
		/* The pinned lanes, then the scrolled ones clipped below them. */
		for (const pinned of [true, false]) {
			const clipTop = pinned ? top : top + pinH;
			ctx.save();
			ctx.beginPath();
			ctx.rect(0, clipTop, W, pinned ? pinH : H - clipTop);
			ctx.clip();
			drawLanes(pinned, clipTop, tl, lv);
			ctx.restore();
		}
		if (pinH && total) {	/* where the pinned band ends */
			ctx.fillStyle = '#c8c8d0';
			ctx.fillRect(0, top + pinH - 1, W, 1);
		}
		drawWindows(top);
		if (total > H - top - pinH) {	/* where the lanes in view are among all of them */
			const vh = H - top - pinH;
			ctx.fillStyle = 'rgba(0,0,0,0.25)';
			ctx.fillRect(W - 5, top + pinH + scrollY / total * vh, 4,
				Math.max(8, vh / total * vh));
		}
		const ms = performance.now() - t0;
		stats.last = ms;
		stats.max = Math.max(stats.max, ms);
		stats.n++;
		stats.samples.push(ms);
		if (stats.samples.length > 200)
			stats.samples.shift();
		$('tl-view').textContent = fmtTs(v0) + ' .. ' + fmtTs(v1) + ' (' + fmtDur(v1 - v0) +
			'), ' + (mode === 'exact' ? 'exact events' : 'summary level ' + l) + ', drawn in ' +
			ms.toFixed(1) + ' ms';
		if (hover)
			showTip(hover.x, hover.y);
	}
	function drawLanes(pinned, clipTop, tl, lv) {
		for (const lane of lanes) {
			if (lane.pin !== pinned)
				continue;
			const y = laneTop(lane);
			if (y + lane.h < clipTop || y > H)
				continue;
			ctx.fillStyle = lane.k === 'cpu' ? '#f3f3f7' : '#fafafa';
			ctx.fillRect(LABEL_W, y, plotW(), lane.h);
			if (lane.k === 'counter') {
				drawCounter(lane, y);
			} else if (tl || lv) {
				if (!(tl && lane.k === 'slice')) {
					resetCols();
					if (tl) foldExact(tl, lane); else foldLevel(lv, lane);
					drawCols(lane, y);
				}
				if (tl)
					drawExactDetail(tl, lane, y);
			}
			const mark = lane.u !== undefined && hl.has(lane.u);
			ctx.fillStyle = mark ? '#ffe14d' : '#fff';
			ctx.fillRect(0, y, LABEL_W - 4, lane.h);
			ctx.fillStyle = lane.k === 'slice' ? '#666' : '#222';
			label(lane.name, 0, y + Math.min(lane.h, LANE_H) - 6, LABEL_W - 6);
		}
	}

	/* ---- the tooltip ---- */
	function findEvent(lane, t, tol) {
		const k = Math.min(M.ntiles - 1, Math.max(0, Math.floor(t / TILE_NS)));
		const tt = tiles.get(k);
		if (!tt || !tt.data)
			return null;
		const ev = tt.data.get(lane.data);
		if (!ev)
			return null;
		let best = null, bd = Infinity;
		let i = Math.max(0, lowerBound(ev.ts, t - tol) - 1);
		while (i > 0 && ev.ts[i] + ev.dur[i] > t - tol && i > lowerBound(ev.ts, t) - 64) i--;
		for (; i < ev.ts.length && ev.ts[i] <= t + tol; i++) {
			const s = ev.ts[i], e = s + ev.dur[i];
			const d = t < s ? s - t : t > e ? t - e : 0;
			if (d <= tol && (d < bd || (d === bd && ev.depth && ev.depth[i] > best.depth))) {
				bd = d;
				best = { ts: s, dur: ev.dur[i], key: ev.key[i], depth: ev.depth ? ev.depth[i] : 0 };
			}
		}
		return best;
	}
	function tipText(x, y) {
		const t = tOf(x), npx = (v1 - v0) / plotW();
		if (y < RULER_H) {
			for (const m of M.markers)
				if (Math.abs(xOf(m[0]) - x) <= 3)
					return 'marker ' + JSON.stringify(m[1]) + '\nat ' + fmtTs(m[0]);
			for (const w of M.windows)
				if (t >= w.start && t <= w.end && !(w.start <= 0 && w.end >= SPAN))
					return 'rule ' + w.name + ': ' + w.verdict + '\nwindow ' + fmtTs(w.start) +
						' .. ' + fmtTs(w.end) + ' (' + fmtDur(w.end - w.start) + ')';
			return null;
		}
		const pinned = y < RULER_H + pinH;
		const lane = lanes.find((l) => l.pin === pinned && y >= laneTop(l) &&
			y < laneTop(l) + l.h);
		if (!lane || x < LABEL_W)
			return lane ? lane.name.trim() : null;
		if (lane.k === 'counter') {
			const c = lane.c, i = lowerBound(c.ts, t + 1) - 1;
			if (i < 0) return null;
			return lane.name + ' = ' + c.v[i] + (c.unit ? ' ' + c.unit : '') + '\nfrom ' +
				fmtTs(c.ts[i]) + (c.decimated ? '\n(' + c.n + ' samples, decimated)' : '');
		}
		if (mode !== 'exact') {
			if (!levels[levelInUse]) return null;
			const run = levels[levelInUse].get(lane.data), cw = SPAN / M.levels[levelInUse];
			if (!run) return null;
			const c = Math.floor(t / cw), i = lowerBound(run.c0, c + 1) - 1;
			if (i < 0 || c >= run.c0[i] + run.len[i]) return null;
			const what = lane.k === 'cpu' ? taskName(run.key[i]) : lane.k === 'thread' ?
				'mostly ' + (STATE_NAME[M.states[run.key[i]]] || M.states[run.key[i]]) :
				M.names[run.key[i]];
			return what + '\nbusy ' + Math.round(run.a[i] / 2.55) + ' %' +
				(lane.k === 'thread' ? ', runnable ' + Math.round(run.b[i] / 2.55) + ' %' : '') +
				' of ' + fmtDur(cw * run.len[i]) + ' from ' + fmtTs(run.c0[i] * cw) +
				'\n(summary: zoom in for single events)';
		}
		const e = findEvent(lane, t, npx * 2);
		if (!e)
			return null;
		let head;
		if (lane.k === 'cpu')
			head = taskName(e.key) + '\nstate running on CPU ' + lane.cpu;
		else if (lane.k === 'thread')
			head = taskName(lane.u) + '\nstate ' + M.states[e.key] + ' (' +
				(STATE_NAME[M.states[e.key]] || '?') + ')';
		else
			head = M.names[e.key] + '\n' + taskName(lane.u) + ', depth ' + e.depth;
		return head + '\nstart ' + fmtTs(e.ts) + '\nduration ' + fmtDur(e.dur) + ' (' + e.dur +
			' ns)';
	}
	function showTip(x, y) {
		const s = tipText(x, y);
		if (!s) {
			tip.hidden = true;
			return;
		}
		tip.textContent = s;
		tip.hidden = false;
		const r = canvas.getBoundingClientRect(), p = canvas.offsetParent ? 0 : 0;
		tip.style.left = Math.min(x + 14, r.width - tip.offsetWidth - 4) + p + 'px';
		tip.style.top = canvas.offsetTop + y + 16 + 'px';
	}

	/* ---- input ---- */
	let drag = null;
	canvas.addEventListener('wheel', (e) => {
		e.preventDefault();
		const r = canvas.getBoundingClientRect();
		if (e.shiftKey)
			scrollLanes(e.deltaY || e.deltaX);
		else
			zoom(Math.pow(1.0015, e.deltaY), e.clientX - r.left);
	}, { passive: false });
	canvas.addEventListener('mousedown', (e) => {
		drag = { x: e.clientX, y: e.clientY, v0, v1, s: scrollY };
		canvas.style.cursor = 'grabbing';
	});
	window.addEventListener('mouseup', () => { drag = null; canvas.style.cursor = ''; });
	window.addEventListener('mousemove', (e) => {
		const r = canvas.getBoundingClientRect();
		const x = e.clientX - r.left, y = e.clientY - r.top;
		if (drag) {
			const d = (e.clientX - drag.x) / plotW() * (drag.v1 - drag.v0);
			setView(drag.v0 - d, drag.v1 - d);
			scrollY = drag.s;
			scrollLanes(drag.y - e.clientY);
		}
		if (x >= 0 && y >= 0 && x < r.width && y < r.height) {
			hover = { x, y };
			showTip(x, y);
		} else if (hover) {
			hover = null;
			tip.hidden = true;
		}
	});
	document.addEventListener('keydown', (e) => {
		if (e.target && e.target.tagName === 'INPUT')
			return;
		const x = hover ? hover.x : undefined, k = e.key.toLowerCase();
		if (k === 'w' || k === '+' || k === '=') zoom(0.7, x);
		else if (k === 's' || k === '-' || k === '_') zoom(1 / 0.7, x);
		else if (k === 'a') pan(-0.2);
		else if (k === 'd') pan(0.2);
		else if (k === '0') setView(0, SPAN);
		else return;
		e.preventDefault();
	});
	$('tl-reset').addEventListener('click', () => setView(0, SPAN));
	const search = $('tl-search');
	search.addEventListener('input', (e) => {
		query = e.target.value.trim().toLowerCase();
		hl.clear();
		if (query)
			for (const [u, t] of threads)
				if (String(t[0]) === query || (t[2] || '').toLowerCase().includes(query) ||
				    (t[3] || '').toLowerCase().includes(query))
					hl.add(u);
		$('tl-found').textContent = query ? hl.size + ' threads' : '';
		schedule();
	});
	/* The verdict table: a click on a row that did not pass zooms to its rule's window. */
	const windows = new Map(M.windows.map((w) => [w.name, w]));
	for (const tr of document.querySelectorAll('tr.fail, tr.error, tr.warn, tr.xpass')) {
		const td = tr.children[1], w = td && windows.get(td.textContent);
		if (!w)
			continue;
		tr.classList.add('tl-link');
		tr.title = 'show this rule\'s window in the timeline';
		tr.addEventListener('click', () => {
			$('timeline').scrollIntoView();
			if (w.pid >= 0) {	/* the rule's task, highlighted, its lanes under the CPUs */
				search.value = String(w.pid);
				search.dispatchEvent(new Event('input'));
				bringUp(w.pid);
			}
			setView(w.start, w.end);
		});
	}
	window.addEventListener('resize', schedule);

	/* For tests and the curious: the view in absolute trace ns, and redraw times. */
	level(0);
	level(1);
	const ready = Promise.all([levelWait[0], levelWait[1]]).then(() => new Promise((res) => requestAnimationFrame(() => {
		draw();
		api.openMs = performance.now();
		res();
	})));
	const api = {
		ready, stats, openMs: null,
		view: () => [M.t0 + v0, M.t0 + v1],
		setView: (a, b) => { setView(a - M.t0, b - M.t0); draw(); },
		mode: () => mode,
		xOf: (abs) => xOf(abs - M.t0),
		laneY: (name) => {
			const l = lanes.find((x) => x.name.trim() === name);
			return l ? laneTop(l) + l.h / 2 : null;
		},
		settle: async () => {
			for (let i = 0; i < 50; i++) {
				draw();
				if (mode === 'exact' || chooseLevel() >= 0 && levels[chooseLevel()])
					return mode;
				await new Promise((r) => setTimeout(r, 20));
			}
			return mode;
		},
		draw,
	};
	window.traxTimeline = api;
}());
