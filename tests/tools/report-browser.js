#!/usr/bin/env node
// tests/tools/report-browser.js: drive headless Chromium over the DevTools protocol
// (--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4, no network, no npm) through
// trax's HTML report timeline, and print what it saw as one JSON object.
//   node report-browser.js CHROMIUM REPORT.html JOB.json
// JOB: { "shots": DIR, "probes": [{ "lane": "CPU 0", "t": ABS_NS, "window": [A, B] }],
//        "scroll": { "window": [A, B], "t": ABS_NS, "dy": PX, "lanes": [NAME, ...] },
//        "zooms": N, "zoom_out": N, "search": TEXT, "click": RESULT_NAME,
//        "open_timeout_ms": 20000 }
// A probe reports the view's mode, the tooltip at (t, the lane's middle) and the canvas pixel
// there as "#rrggbb"; the scroll step reports the lanes' middles and their pixels at t before
// and after a shift+wheel of dy pixels over the canvas; search_strips (with search_view, the
// view for them): the number of distinct colours along each strip's lane over its times [a, b],
// before and after the search.
// Every wait is bounded; the browser is killed on any exit.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [chromium, html, jobFile] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(jobFile, 'utf8'));
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'trax-chromium.'));
const args = ['--headless=new', '--disable-gpu', '--remote-debugging-pipe',
	'--user-data-dir=' + profile, '--no-first-run', '--no-default-browser-check',
	'--disable-background-networking', '--disable-extensions', '--disable-sync',
	'--window-size=1400,1000', '--hide-scrollbars', 'about:blank'];
if (process.getuid && process.getuid() === 0)
	args.unshift('--no-sandbox');
const child = spawn(chromium, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stdio[2].on('data', (d) => { stderr = (stderr + d).slice(-4000); });
let exited = false;
const gone = new Promise((res) => child.on('exit', () => { exited = true; res(); }));
// Kill the browser, wait (bounded) until it is gone, remove its profile, exit with code.
async function finish(code, text) {
	process.stdout.write(text + '\n');
	try { child.kill('SIGKILL'); } catch (e) { /* gone */ }
	await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
	try { fs.rmSync(profile, { recursive: true, force: true }); } catch (e) { /* left in tmp */ }
	process.exit(code);
}
process.on('exit', () => { if (!exited) try { child.kill('SIGKILL'); } catch (e) { /* */ } });
const overall = setTimeout(() => fail('timed out after ' + (job.timeout_ms || 60000) + ' ms'),
	job.timeout_ms || 60000);
let done = false;
function fail(msg) {
	if (done) return;
	done = true;
	finish(1, JSON.stringify({ error: msg, chromium_stderr: stderr }));
}
child.on('exit', (c, s) => fail('chromium exited (' + (c === null ? s : c) + ')'));

const out = child.stdio[3], inp = child.stdio[4];
let id = 0, buf = Buffer.alloc(0);
const waiting = new Map(), listeners = [];
inp.on('data', (d) => {
	buf = Buffer.concat([buf, d]);
	let z;
	while ((z = buf.indexOf(0)) >= 0) {
		const msg = JSON.parse(buf.subarray(0, z).toString('utf8'));
		buf = buf.subarray(z + 1);
		if (msg.id && waiting.has(msg.id)) {
			const w = waiting.get(msg.id);
			waiting.delete(msg.id);
			if (msg.error) w.rej(new Error(w.method + ': ' + msg.error.message));
			else w.res(msg.result);
		} else if (msg.method) {
			for (const l of listeners.slice()) l(msg);
		}
	}
});
function send(method, params, sessionId, ms) {
	const n = ++id;
	out.write(JSON.stringify({ id: n, method, params: params || {}, sessionId }) + '\0');
	return new Promise((res, rej) => {
		const t = setTimeout(() => rej(new Error(method + ': no answer in ' + (ms || 20000) + ' ms')),
			ms || 20000);
		waiting.set(n, { method, res: (v) => { clearTimeout(t); res(v); },
			rej: (e) => { clearTimeout(t); rej(e); } });
	});
}
function once(method, ms) {
	return new Promise((res, rej) => {
		const t = setTimeout(() => rej(new Error(method + ': not seen in ' + ms + ' ms')), ms);
		const l = (m) => {
			if (m.method === method) {
				listeners.splice(listeners.indexOf(l), 1);
				clearTimeout(t);
				res(m.params);
			}
		};
		listeners.push(l);
	});
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
	const errors = [];
	listeners.push((m) => {
		if (m.method === 'Runtime.exceptionThrown')
			errors.push(m.params.exceptionDetails.exception ?
				m.params.exceptionDetails.exception.description : m.params.exceptionDetails.text);
		if (m.method === 'Runtime.consoleAPICalled' && m.params.type === 'error')
			errors.push(m.params.args.map((a) => a.value || a.description).join(' '));
		if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error')
			errors.push(m.params.entry.text + ' ' + (m.params.entry.url || ''));
	});
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId: s } = await send('Target.attachToTarget', { targetId, flatten: true });
	const S = (m, p, ms) => send(m, p, s, ms);
	const ev = async (expr) => {
		const r = await S('Runtime.evaluate', { expression: expr, awaitPromise: true,
			returnByValue: true }, 30000);
		if (r.exceptionDetails)
			throw new Error('evaluate ' + expr + ': ' + (r.exceptionDetails.exception ?
				r.exceptionDetails.exception.description : r.exceptionDetails.text));
		return r.result.value;
	};
	await S('Page.enable');
	await S('Runtime.enable');
	await S('Log.enable');
	await S('Emulation.setDeviceMetricsOverride', { width: 1400, height: 1000,
		deviceScaleFactor: 1, mobile: false });
	const loaded = once('Page.loadEventFired', job.open_timeout_ms || 20000);
	const t0 = Date.now();
	await S('Page.navigate', { url: 'file://' + path.resolve(html) });
	await loaded;
	const openMs = await ev('traxTimeline.ready.then(() => traxTimeline.openMs)');
	const res = { open_ms: openMs, open_wall_ms: Date.now() - t0, probes: [], redraw_ms: [] };
	// The canvas pixel at CSS (x, y), read back from the canvas itself (null: not on it).
	const pixel = (x, y) => ev("(() => { const c = document.getElementById('tl-canvas')," +
		' k = c.width / c.clientWidth, x = Math.floor(' + x + ' * k), y = Math.floor(' + y +
		' * k); if (!(x >= 0 && y >= 0 && x < c.width && y < c.height)) return null;' +
		' const d = c.getContext("2d").getImageData(x, y, 1, 1).data; return "#" +' +
		' [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, "0")).join(""); })()');
	const shot = async (name) => {
		if (!job.shots) return;
		const r = await S('Page.captureScreenshot', { format: 'png' }, 30000);
		fs.writeFileSync(path.join(job.shots, name + '.png'), Buffer.from(r.data, 'base64'));
	};
	await ev("document.getElementById('tl-canvas').scrollIntoView({block: 'center'})");
	await shot('timeline-whole');
	// Real wheel events over the canvas, zooming in at its middle; each redraw timed.
	const rect = await ev("(() => { const r = document.getElementById('tl-canvas')" +
		'.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()');
	// Then zoom_out wheel events back out. settle_ms: from the wheel event to the view drawn
	// from the data it needs (tiles inflated), DevTools round trips included.
	res.settle_ms = [];
	const nin = job.zooms === undefined ? 12 : job.zooms, nout = job.zoom_out || 0;
	for (let i = 0; i < nin + nout; i++) {
		const w0 = Date.now();
		await S('Input.dispatchMouseEvent', { type: 'mouseWheel', x: rect[0] + rect[2] * 0.6,
			y: rect[1] + 60, deltaX: 0, deltaY: i < nin ? -400 : 400 });
		res.redraw_ms.push(await ev('traxTimeline.settle().then(() => { traxTimeline.draw(); ' +
			'return traxTimeline.stats.last; })'));
		res.settle_ms.push(Date.now() - w0);
	}
	for (const p of job.probes || []) {
		await ev('traxTimeline.setView(' + p.window[0] + ', ' + p.window[1] + ')');
		const mode = await ev('traxTimeline.settle()');
		res.redraw_ms.push(await ev('traxTimeline.draw(), traxTimeline.stats.last'));
		const xy = await ev('[traxTimeline.xOf(' + p.t + '), traxTimeline.laneY(' +
			JSON.stringify(p.lane) + ')]');
		const px = xy[1] === null ? null : await pixel(xy[0], xy[1]);
		const r = await ev("(() => { const r = document.getElementById('tl-canvas')" +
			'.getBoundingClientRect(); return [r.left, r.top]; })()');
		await S('Input.dispatchMouseEvent', { type: 'mouseMoved', x: r[0] + xy[0],
			y: r[1] + xy[1] });
		await sleep(50);
		const tipText = await ev("document.getElementById('tl-tip').hidden ? '' : " +
			"document.getElementById('tl-tip').textContent");
		res.probes.push({ lane: p.lane, mode, tooltip: tipText, at: xy, pixel: px });
		if (p.shot) await shot(p.shot);
	}
	if (job.scroll) {
		const sc = job.scroll, look = async () => {
			const out = [];
			for (const name of sc.lanes) {
				const y = await ev('traxTimeline.laneY(' + JSON.stringify(name) + ')');
				const x = await ev('traxTimeline.xOf(' + sc.t + ')');
				out.push({ lane: name, y, pixel: y === null || y < 0 ? null :
					await pixel(x, y) });
			}
			return out;
		};
		await ev('traxTimeline.setView(' + sc.window[0] + ', ' + sc.window[1] + ')');
		await ev('traxTimeline.settle()');
		const before = await look();
		const r = await ev("(() => { const r = document.getElementById('tl-canvas')" +
			'.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()');
		await S('Input.dispatchMouseEvent', { type: 'mouseWheel', x: r[0] + r[2] * 0.5,
			y: r[1] + r[3] * 0.7, deltaX: 0, deltaY: sc.dy, modifiers: 8 });
		await ev('traxTimeline.settle()');
		res.scroll = { before, after: await look() };
		if (sc.shot) await shot(sc.shot);
		await S('Input.dispatchMouseEvent', { type: 'mouseWheel', x: r[0] + r[2] * 0.5,
			y: r[1] + r[3] * 0.7, deltaX: 0, deltaY: -sc.dy, modifiers: 8 });
		await ev('traxTimeline.settle()');
	}
	if (job.search) {
		// Distinct colours along a lane's middle over [t0, t1], before and after the search.
		const strips = async () => {
			const out = [];
			for (const st of job.search_strips || [])
				out.push(await ev('(() => { const c = document.getElementById("tl-canvas"),' +
					' k = c.width / c.clientWidth, x0 = Math.round(traxTimeline.xOf(' + st.t[0] +
					') * k), x1 = Math.round(traxTimeline.xOf(' + st.t[1] + ') * k),' +
					' y = Math.floor(traxTimeline.laneY(' + JSON.stringify(st.lane) + ') * k),' +
					' d = c.getContext("2d").getImageData(x0, y, x1 - x0, 1).data, s = new Set();' +
					' for (let i = 0; i < d.length; i += 4) s.add(d[i] << 16 | d[i + 1] << 8 |' +
					' d[i + 2]); return s.size; })()'));
			return out;
		};
		if (job.search_view) {
			await ev('traxTimeline.setView(' + job.search_view[0] + ', ' + job.search_view[1] +
				')');
			await ev('traxTimeline.settle()');
		}
		const before = await strips();
		await ev("document.getElementById('tl-search').focus()");
		await S('Input.insertText', { text: job.search });
		await sleep(50);
		await ev('traxTimeline.draw()');
		res.search_found = await ev("document.getElementById('tl-found').textContent");
		res.search_strips = { before, after: await strips() };
		await ev("(() => { const e = document.getElementById('tl-search'); e.value = '';" +
			" e.dispatchEvent(new Event('input')); })()");
	}
	if (job.click) {
		const c = await ev('(() => { const tr = [...document.querySelectorAll("tr.tl-link")]' +
			'.find((t) => t.children[1].textContent === ' + JSON.stringify(job.click) + ');' +
			' if (!tr) return null; tr.scrollIntoView({block: "center"});' +
			' const r = tr.getBoundingClientRect(); return [r.left + 20, r.top + r.height / 2]; })()');
		if (c) {
			for (const type of ['mousePressed', 'mouseReleased'])
				await S('Input.dispatchMouseEvent', { type, x: c[0], y: c[1], button: 'left',
					clickCount: 1 });
			await sleep(100);
			await ev('traxTimeline.settle()');
			res.view_after_click = await ev('traxTimeline.view()');
			await sleep(50);
			await shot('timeline-failed-rule');
		} else {
			res.view_after_click = null;
		}
	}
	res.errors = errors;
	clearTimeout(overall);
	done = true;
	finish(0, JSON.stringify(res));
})().catch((e) => fail(e.message));
