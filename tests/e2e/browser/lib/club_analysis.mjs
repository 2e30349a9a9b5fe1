// The hand viewer's analysis (issue 26, point 1): a finished game of four
// computer players (club_viewer's short seeded uk-32 game) opened at
// /club/viewer#game=ID; Analyse for the seat offered (South: nobody signed
// in played; West once the player of West is the one signed in), its progress, then the mistakes worst first; the worst one
// clicked moves the viewer to its position, where the decision panel shows
// the options with their values and the cost; opened again, the kept
// analysis shows without asking.  Then the same game's record
// picked from disk and analysed as an upload.  Screenshots; axe.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check } from './harness.mjs';
import { auditBoth } from './axe.mjs';
import { fetchText, makeGame } from './club_viewer.mjs';

/** The viewer's place and the analysis shown. */
async function state(page) {
  return page.evaluate(() => {
    const v = document.querySelector('#viewer');
    const d = document.querySelector('#viewer-decision');
    return {
      deal: Number(v?.dataset.deal),
      step: Number(v?.dataset.step),
      mistakes: [...document.querySelectorAll('#viewer-analysis li')].map((li) => ({ deal: Number(li.dataset.deal), step: Number(li.dataset.step), cost: Number(li.dataset.cost), text: li.textContent ?? '' })),
      decision: d && !d.hidden ? { deal: Number(d.dataset.deal), step: Number(d.dataset.step), verdict: document.querySelector('#viewer-decision-verdict')?.textContent ?? '', options: d.querySelectorAll('tbody tr').length, chosen: d.querySelectorAll('tbody tr.chosen').length, best: d.querySelectorAll('tbody tr.best').length } : null,
      status: document.querySelector('#viewer-analysis-status')?.textContent ?? '',
      statusState: document.querySelector('#viewer-analysis-status')?.dataset.state ?? '',
    };
  });
}

/** Clicks Analyse and waits for the analysis (generous: the machine is shared). */
async function analyse(page, what) {
  await page.locator('#viewer-analyse').click();
  await page.waitForFunction(() => ['running', 'queued', 'done', 'error'].includes(document.querySelector('#viewer-analysis-status')?.dataset.state ?? ''), null, { timeout: 20000 });
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#viewer-analysis-status')?.dataset.state ?? ''), null, { timeout: 180000 });
  const got = await state(page);
  check(got.statusState === 'done', `${what}: the analysis should finish`, { actual: got.status });
  return got;
}

/** The worst mistake clicked: the viewer at its position, the decision panel there. */
async function clickWorst(page, got, what) {
  check(got.mistakes.length > 0, `${what}: the analysis should list mistakes`, { actual: got.mistakes.length });
  for (let i = 1; i < got.mistakes.length; i++) check(got.mistakes[i].cost <= got.mistakes[i - 1].cost, `${what}: the mistakes should be listed worst first`, { actual: got.mistakes.map((m) => m.cost) });
  check(/expected to cost [0-9.]+ points? against /.test(got.mistakes[0].text), `${what}: a mistake should say what it is expected to cost, against what`, { actual: got.mistakes[0].text });
  const worst = got.mistakes[0];
  await page.locator('#viewer-analysis li a').first().click();
  const at = await state(page);
  check(at.deal === worst.deal && at.step === worst.step - 1, `${what}: the worst mistake's link should move the viewer to its deal and the step before it`, { expected: { deal: worst.deal, step: worst.step - 1 }, actual: { deal: at.deal, step: at.step } });
  check(at.decision && at.decision.deal === worst.deal && at.decision.step === worst.step, `${what}: the decision panel should show that decision`, { actual: at.decision });
  check(at.decision && at.decision.options >= 2 && at.decision.chosen === 1 && at.decision.best === 1, `${what}: the panel should list the options, the chosen one and the best marked`, { actual: at.decision });
  check(at.decision && /Expected to cost [0-9.]+ points? against /.test(at.decision.verdict), `${what}: the panel should say the cost in points against the best option`, { actual: at.decision?.verdict });
  // A step on: the panel is not that decision's any more.
  await page.locator('#viewer-next').click();
  const after = await state(page);
  check(!after.decision || after.decision.step !== worst.step, `${what}: a step on, the panel should leave that decision`, { actual: after.decision });
  await page.locator('#viewer-prev').click();
}

async function club_analysis(sc) {
  const p = await sc.person('ann');
  p.sc = sc;
  const page = p.page;
  const id = await makeGame(sc, p);
  sc.log(`game ${id} over`);
  await page.goto(new URL(`/club/viewer#game=${id}`, sc.server.url).href);
  await page.locator('#viewer[data-state=shown]').waitFor({ timeout: 10000 });
  check(await page.locator('#viewer-analyse').isVisible(), 'the viewer should offer Analyse');
  const seat = await page.locator('#viewer-analyse-seat').inputValue();
  check(seat === 'S', 'the seat offered should be South when the signed-in player did not play', { actual: seat });
  check((await page.locator('#viewer-analyse-level').inputValue()) === 'medium', 'the level offered should be medium');

  const t0 = Date.now();
  const got = await analyse(page, `game ${id}`);
  sc.log(`analysis of S done in ${Date.now() - t0} ms, ${got.mistakes.length} mistakes listed`);
  await sc.shot(p, 'analysis', { focus: '#viewer-analysis-panel' });
  await clickWorst(page, got, `game ${id}`);
  await sc.shot(p, 'decision', { focus: '#viewer-decision' });
  await auditBoth(sc, p, 'the hand viewer with an analysis');

  // Asked again: the kept analysis at once.
  const again = await analyse(page, `game ${id} again`);
  check(JSON.stringify(again.mistakes) === JSON.stringify(got.mistakes), 'the analysis asked again should be the same', { actual: again.mistakes.length });

  // The game opened again: its kept analysis shows without asking.
  await page.reload();
  await page.locator('#viewer[data-state=shown]').waitFor({ timeout: 10000 });
  await page.locator('#viewer-analysis li').first().waitFor({ timeout: 10000 });
  const kept = await state(page);
  check(kept.statusState === 'done' && JSON.stringify(kept.mistakes) === JSON.stringify(got.mistakes), 'the game opened again should show its kept analysis at once', { actual: kept.status });

  // Signed in as a player of the game (the session the client keeps after
  // its welcome, as it keeps it): that player's seat is offered.
  await page.evaluate(() => localStorage.setItem('barbu.last', JSON.stringify({ name: 'Easy Bot W', token: 'a'.repeat(64) })));
  await page.reload();
  await page.locator('#viewer[data-state=shown]').waitFor({ timeout: 10000 });
  const mine = await page.locator('#viewer-analyse-seat').inputValue();
  check(mine === 'W', 'the seat offered should be the signed-in player\'s when they played (any case)', { actual: mine });
  await page.evaluate(() => localStorage.removeItem('barbu.last'));

  // The record picked from disk: analysed as an upload.
  const rec = await fetchText(page, `/club/api/game/${id}/record`);
  const file = join(sc.tmp('analysis'), `game-${id}.txt`);
  writeFileSync(file, rec.text);
  await page.locator('#viewer-file').setInputFiles(file);
  await page.waitForFunction((name) => document.querySelector('.viewer-title')?.textContent?.includes(name), `game-${id}.txt`, { timeout: 10000 });
  check((await state(page)).mistakes.length === 0, 'a new record should show no analysis before it is asked');
  const up = await analyse(page, 'the uploaded record');
  await clickWorst(page, up, 'the uploaded record');
  check(JSON.stringify(up.mistakes.map((m) => [m.deal, m.step, m.cost])) === JSON.stringify(got.mistakes.map((m) => [m.deal, m.step, m.cost])), 'the uploaded record\'s analysis should be the game\'s', { actual: up.mistakes.length });
  sc.stats.extra = `game=${id} mistakes=${got.mistakes.length}`;
}

export const CLUB_ANALYSIS = { club_analysis };
