// Every question a learner asks, answered within two clicks of the lesson step where it comes
// up, in English and in Korean. Each question opens its lesson step on a fresh page in that
// language, goes to the instant the lesson talks about (typed into the clock), then clicks what a learner
// would click (at most two things) and reads the answer where the page shows it.
//
//   node tests/browser/questions.mjs <dist> [artifacts]
//
// Prints the table of questions, steps, clicks and answers (also written to
// <artifacts>/questions.md), and a screenshot of each answer in each language.
import fs from 'node:fs';
import path from 'node:path';
import { assert, finish, launch, live, seekTo, slow, test } from './harness.mjs';
import { serve } from './server.mjs';

const dist = process.argv[2] || 'dist';
const artifacts = process.argv[3] || 'target/browser-artifacts';
fs.mkdirSync(artifacts, { recursive: true });

const { server, url } = await serve(dist, '/');
const browser = await launch();

/** The at most two clicks a learner makes, and where the answer is then. */
const QUESTIONS = [
  {
    id: 'pending',
    en: 'Why is this pod pending?',
    ko: '이 파드는 왜 Pending인가?',
    lesson: 'labels-taints', step: 7, playTo: 150_000, until: '[data-lane="pool/platform"] .node.ready >> nth=3',
    clicks: [{ what: { en: 'a pod in the Pending tray', ko: 'Pending 트레이의 파드' }, selector: '.tray .pod >> nth=0' }],
    where: { en: 'Explain: the answer', ko: 'Explain(설명): 답' },
    answer: '.explanation[data-kind="pod"] .answer',
    expect: { en: /Pending.*cpu 0 of 8 left/s, ko: /Pending|대기/ },
  },
  {
    id: 'pool-nothing',
    en: 'Why did nothing launch in this pool?',
    ko: '이 풀에는 왜 아무것도 뜨지 않았나?',
    lesson: 'labels-taints', step: 7, playTo: 150_000, until: '[data-lane="pool/platform"] .node.ready >> nth=3',
    clicks: [{ what: { en: 'a pod in the Pending tray', ko: 'Pending 트레이의 파드' }, selector: '.tray .pod >> nth=0' }],
    where: { en: 'each lane, under its name', ko: '각 레인의 이름 아래' },
    answer: '[data-lane="pool/service"] .pool-why',
    expect: { en: /node=service:NoSchedule/, ko: /node=service:NoSchedule/ },
  },
  {
    id: 'instance-type',
    en: 'Why this instance type and not a larger one?',
    ko: '왜 이 인스턴스 유형이고 더 큰 것은 아닌가?',
    lesson: 'labels-taints', step: 2, playTo: 90_000, until: '[data-lane="pool/platform"] .node.ready >> nth=0',
    clicks: [{ what: { en: 'the node\'s header', ko: '노드 카드의 머리' }, selector: '[data-lane="pool/platform"] .node header >> nth=0' }],
    where: { en: 'Explain: Why this instance type', ko: 'Explain(설명): 왜 이 인스턴스 유형인가' },
    answer: '.explanation [data-section="launch"]',
    expect: { en: /more than t3\.small/, ko: /t3\.small보다/ },
  },
  {
    id: 'job-pool',
    en: 'Why did the Job land on that pool?',
    ko: 'Job은 왜 그 풀에 갔나?',
    lesson: 'multiarch-batch', step: 2, playTo: 100_000, until: '.lane .pod:has-text("batch-")',
    clicks: [{ what: { en: 'the Job\'s pod on its node', ko: '노드 위의 Job 파드' }, selector: '.lane .pod:has-text("batch-") >> nth=0' }],
    where: { en: 'Explain: the answer, then NodePools in Karpenter\'s order', ko: 'Explain(설명): 답, 그리고 Karpenter가 시도하는 순서의 NodePool' },
    answer: '.explanation[data-kind="pod"] .answer',
    expect: { en: /general-multiarch is the first NodePool in Karpenter's order \(weight, then name in reverse order\)/, ko: /general-multiarch/ },
  },
  {
    id: 'empty-node',
    en: 'When will this empty node go away?',
    ko: '이 빈 노드는 언제 사라지나?',
    lesson: 'labels-taints', step: 4, playTo: 200_000, until: '[data-lane="pool/platform"] .node >> nth=0',
    clicks: [{ what: { en: 'the empty node\'s header', ko: '빈 노드 카드의 머리' }, selector: '[data-lane="pool/platform"] .node header >> nth=0' }],
    where: { en: 'Explain: Disruption (a countdown that follows the clock)', ko: 'Explain(설명): 중단(disruption), 시계를 따라 줄어드는 카운트다운' },
    answer: '.explanation [data-section="disruption"]',
    expect: { en: /consolidateAfter: [\d.]+s left/, ko: /consolidateAfter: [\d.]+s 남음/ },
  },
  {
    id: 'not-consolidated',
    en: 'Why was this node not consolidated?',
    ko: '이 노드는 왜 통합되지 않았나?',
    lesson: 'protect', step: 4, playTo: 300_000, until: '.lane .node:has-text("workload=db")',
    clicks: [{ what: { en: 'the pinned node\'s header', ko: 'pinned 노드 카드의 머리' }, selector: '.lane .node:has-text("workload=db") header' }],
    where: { en: 'Explain: Disruption', ko: 'Explain(설명): 중단(disruption)' },
    answer: '.explanation [data-section="disruption"]',
    expect: { en: /Not disrupted: the node has karpenter\.sh\/do-not-disrupt/, ko: /중단되지 않음: 노드에 karpenter\.sh\/do-not-disrupt/ },
  },
  {
    id: 'balanced',
    en: 'Why does Balanced keep this node when a cheaper one would do?',
    ko: '더 싼 노드로 충분한데 Balanced는 왜 이 노드를 남기나?',
    lesson: 'karpenter-today', step: 1, playTo: 300_000, until: '[data-lane="pool/general"] .node[aria-label*="m5.xlarge"]',
    clicks: [{ what: { en: 'the m5.xlarge node', ko: 'm5.xlarge 노드' }, selector: '[data-lane="pool/general"] .node[aria-label*="m5.xlarge"] header' }],
    where: { en: 'Explain: Disruption (both shares, the score and the threshold)', ko: 'Explain(설명): 중단(disruption), 두 비율과 점수와 문턱값' },
    answer: '.explanation [data-section="disruption"]',
    expect: { en: /saves 10\.0 % of NodePool general's cost for 33\.3 % of its disruption: 0\.30 < 0\.50, kept/, ko: /10\.0 %를 아끼는 데 중단은 33\.3 %를 일으킴: 0\.30 < 0\.50, 유지함/ },
  },
  {
    id: 'cost',
    en: 'What does the cluster cost per hour and per month, and what did the last action save?',
    ko: '클러스터 비용은 시간당, 월당 얼마이고, 마지막 조치로 얼마를 아꼈나?',
    lesson: 'labels-taints', step: 6, playTo: 480_000, until: '.summary .decision',
    clicks: [],
    where: { en: 'the summary above the lanes, and its decision line', ko: '레인 위 요약과 결정 줄' },
    answer: '.summary',
    expect: { en: /\$[\d.]+\/hour · \$[\d.,]+\/month[\s\S]*savings \$[\d.]+\/h/, ko: /\$[\d.]+\/시간 · \$[\d.,]+\/월[\s\S]*savings \$[\d.]+\/h/ },
  },
  {
    id: 'v1beta1',
    en: 'What breaks when v1beta1 YAML meets v1?',
    ko: 'v1beta1 YAML을 v1에 넣으면 무엇이 깨지나?',
    lesson: 'v1beta1-to-v1', step: 1,
    clicks: [],
    where: { en: 'Problems, under the manifests', ko: '매니페스트 아래의 문제' },
    answer: '.problems',
    expect: { en: /v1beta1/, ko: /v1beta1/ },
  },
  {
    id: 'teardown-order',
    en: 'In which order do I tear this down so nothing keeps costing?',
    ko: '어떤 순서로 정리해야 비용이 남지 않나?',
    lesson: 'teardown', step: 2,
    clicks: [],
    where: { en: 'the lesson step, and the cost line at $0', ko: '레슨 단계, 그리고 $0이 되는 비용 선' },
    answer: '#lesson-body',
    expect: { en: /Deployment[\s\S]*NodePool[\s\S]*EC2NodeClass/, ko: /Deployment[\s\S]*NodePool[\s\S]*EC2NodeClass/ },
  },
  {
    id: 'class-waits',
    en: 'What happens if I delete the EC2NodeClass first?',
    ko: 'EC2NodeClass부터 지우면 어떻게 되나?',
    lesson: 'teardown', step: 4, playTo: 200_000,
    clicks: [{ what: { en: 'the Events tab', ko: '이벤트 탭' }, selector: '#tab-events' }],
    where: { en: 'Events: the class\'s Waiting row', ko: '이벤트: 클래스의 Waiting 줄' },
    answer: '.events li:has-text("waiting on NodeClaim termination")',
    expect: { en: /waiting on NodeClaim termination/, ko: /waiting on NodeClaim termination/ },
  },
  {
    id: 'zone',
    en: 'Which zone, and why?',
    ko: '어느 가용 영역에, 왜?',
    lesson: 'zones', step: 1, playTo: 120_000, until: '[data-lane="pool/service"] .node[aria-label*="ap-northeast-2a"]',
    clicks: [{ what: { en: 'the node in ap-northeast-2a', ko: 'ap-northeast-2a의 노드' }, selector: '[data-lane="pool/service"] .node[aria-label*="ap-northeast-2a"] header' }],
    where: { en: 'Explain: Why this instance type, the zone line', ko: 'Explain(설명): 왜 이 인스턴스 유형인가, 가용 영역 줄' },
    answer: '.explanation [data-section="launch"]',
    expect: { en: /zone ap-northeast-2a: the pods' topology spread over zones \(maxSkew 1\)/, ko: /가용 영역 ap-northeast-2a: 가용 영역에 걸친 파드의 토폴로지 분산\(maxSkew 1\)/ },
  },
];

const rows = [];

for (const lang of ['en', 'ko']) {
  for (const q of QUESTIONS) {
    await test(`${q.id} (${lang}): ${q[lang]}`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: lang === 'ko' ? 'ko-KR' : 'en-US' });
      const page = await context.newPage();
      try {
        await page.goto(url);
        await live(page);
        assert(await page.locator(`.langs button[lang="${lang}"][aria-pressed="true"]`).count() === 1, `the page opens in ${lang}`);
        await page.selectOption('.lesson-picker select', q.lesson);
        for (let s = 1; s < q.step; s++) await page.click('.lesson-nav button.primary');
        if (await page.locator('.lesson .open-lab').count()) await page.click('.lesson .open-lab');
        if (q.playTo) await seekTo(page, q.playTo);
        if (q.until) await page.locator(q.until).waitFor({ timeout: slow(10000) });
        assert(q.clicks.length <= 2, 'two clicks at most');
        for (const c of q.clicks) await page.locator(c.selector).click();
        // The answer is read once it says what it should (a finding or an explanation arrives
        // from the worker a moment after the click), or after 10 s, and then it must.
        const answer = page.locator(q.answer).first();
        await answer.waitFor({ timeout: slow(10000) });
        const deadline = Date.now() + slow(10000);
        let text = '';
        do {
          text = (await answer.innerText()).trim();
          if (q.expect[lang].test(text)) break;
          await page.waitForTimeout(200);
        } while (Date.now() < deadline);
        assert(q.expect[lang].test(text), `the answer in ${lang}: ${text}`);
        // And in sight: the learner reads it without scrolling for it.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const box = await answer.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: innerHeight };
        });
        assert(box.top >= 0 && box.top + 16 <= box.height, `the answer is on screen: its top at ${box.top}px of ${box.height}px`);
        if (lang === 'ko') assert(/[가-힣]/.test(text) || q.expect.ko.source === q.expect.en.source, `the answer is in Korean: ${text}`);
        await page.screenshot({ path: path.join(artifacts, `question-${q.id}-${lang}.png`) });
        // The table quotes the answer from the line that says it.
        const at = text.search(q.expect[lang]);
        const lineStart = text.lastIndexOf('\n', at) + 1;
        rows.push({ q, lang, text: text.slice(lineStart) });
      } finally {
        await context.close();
      }
    });
  }
}

/** The table the closing note and the book's playground chapter quote: one row per question, both languages. */
function table() {
  const out = ['| question | lesson step | clicks | where the answer is | answer (excerpt) |', '|---|---|---|---|---|'];
  for (const lang of ['en', 'ko']) {
    for (const r of rows.filter((r) => r.lang === lang)) {
      const clicks = r.q.clicks.map((c) => c.what[lang]).join(', then ') || (lang === 'ko' ? '없음' : 'none');
      const excerpt = r.text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 160);
      out.push(`| ${r.q[lang]} | ${r.q.lesson} ${r.q.step} | ${r.q.clicks.length}: ${clicks} | ${r.q.where[lang]} | ${excerpt} |`);
    }
  }
  return out.join('\n');
}

const md = table();
fs.writeFileSync(path.join(artifacts, 'questions.md'), md + '\n');
console.log(md);
await browser.close();
server.close();
finish();
