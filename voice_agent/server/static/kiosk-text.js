// The kiosk page's words in English and Chinese, and the privacy notice worded from the facts the server
// serves at /privacy (what the running configuration does), never from fixed prose.
"use strict";

(() => {
  const KINDS = {
    en: {
      PHONE: "phone numbers", ID: "ID numbers", CARD: "card numbers", EMAIL: "e-mail addresses",
      ADDRESS: "street addresses", NAME: "names",
    },
    zh: { PHONE: "电话号码", ID: "证件号码", CARD: "银行卡号", EMAIL: "电子邮件地址", ADDRESS: "街道地址", NAME: "姓名" },
  };

  const en = {
    lang: "en",
    title: "Voice assistant",
    transcript: "Conversation",
    start: "Tap to talk",
    startHint: "The microphone stays on while we talk; you can interrupt me at any time.",
    newConversation: "New conversation",
    erase: "Erase what I said",
    you: "You",
    assistant: "Assistant",
    interrupted: "(interrupted)",
    privacyTitle: "Your privacy",
    privacyLoading: "Loading what this kiosk keeps…",
    states: {
      connecting: ["Connecting", "One moment, please."],
      idle: ["Ready", "Tap the big button to start talking."],
      listening: ["Listening", "Go ahead, I am listening."],
      thinking: ["Thinking", "Working on an answer…"],
      speaking: ["Speaking", "Talk any time to interrupt me."],
      offline: ["Offline", "The assistant is not reachable; retrying on its own."],
      error: ["Problem", "Something went wrong."],
    },
    erased: (n) => `Erased ${n} remembered item${n === 1 ? "" : "s"} from this conversation.`,
    micUnavailable: "The microphone is not available. Please ask staff for help.",
    errors: {
      rate_limited: "Too many questions this minute; please wait a moment.",
      server_error: "The assistant hit a problem and is restarting this visit.",
      session_error: "Something went wrong with that turn; I am listening again.",
      pin_required: "Please type your PIN, then press Enter.",
      identity_refused: "That badge or PIN did not work; this is a new conversation.",
      badge_expired: "This badge has expired; please ask staff for a new one.",
      identity_locked: "Too many wrong PINs; please wait a while before trying again.",
      server_full: "All places are taken; trying again shortly.",
      fatal: "This kiosk cannot start a conversation right now. Please ask staff for help.",
      other: "Something went wrong; please try again.",
    },
    days: (d) => (d === 1 ? "1 day" : `${d} days`),
    seconds: (s) => (s >= 120 && s % 60 === 0 ? `${s / 60} minutes` : `${s} seconds`),
    list: (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`),
    facts: (f, kinds) => [
      `I keep what you say in this visit for ${en.days(f.retention_days)}, then delete it.`,
      kinds.length
        ? `Before storing, I replace with codes the ${kinds} that I recognise. I can miss some: please do not say secrets.`
        : "Nothing is replaced before storing: please do not say personal details.",
      `The visit ends after ${en.seconds(f.idle_timeout_s)} of silence or on “New conversation”.`,
      f.returning_users.second_factor
        ? `A badge continues a past conversation only with ${en.factor(f.returning_users.second_factor)}.`
        : "A badge alone continues a past conversation: keep yours to yourself.",
      "“Erase what I said” deletes this conversation's memory now.",
    ],
    factor: (kind) =>
      ({ pin: "its PIN", badge: "a signed badge", either: "its PIN or a signed badge" })[kind] || "a second check",
  };

  const zh = {
    lang: "zh",
    title: "语音助手",
    transcript: "对话",
    start: "点按开始说话",
    startHint: "对话期间麦克风保持开启；您随时可以打断我。",
    newConversation: "新对话",
    erase: "清除我说过的话",
    you: "您",
    assistant: "助手",
    interrupted: "（已打断）",
    privacyTitle: "您的隐私",
    privacyLoading: "正在加载本机保存的内容…",
    states: {
      connecting: ["正在连接", "请稍候。"],
      idle: ["准备就绪", "点按大按钮开始说话。"],
      listening: ["正在听", "请说，我在听。"],
      thinking: ["正在思考", "正在准备回答…"],
      speaking: ["正在说话", "您随时可以说话打断我。"],
      offline: ["离线", "暂时无法连接助手，正在自动重试。"],
      error: ["出现问题", "出了点问题。"],
    },
    erased: (n) => `已从本次对话中清除 ${n} 条记忆。`,
    micUnavailable: "麦克风不可用，请联系工作人员。",
    errors: {
      rate_limited: "这一分钟内提问太多，请稍等片刻。",
      server_error: "助手出现问题，正在重新开始本次访问。",
      session_error: "这一轮出了点问题，我会继续听。",
      pin_required: "请输入您的 PIN 码，然后按回车键。",
      identity_refused: "胸卡或 PIN 码无效；现在是一个新的对话。",
      badge_expired: "此胸卡已过期，请向工作人员领取新的胸卡。",
      identity_locked: "PIN 码错误次数过多，请稍后再试。",
      server_full: "所有位置都已占用，稍后自动重试。",
      fatal: "本机暂时无法开始对话，请联系工作人员。",
      other: "出了点问题，请再试一次。",
    },
    days: (d) => `${d} 天`,
    seconds: (s) => (s >= 120 && s % 60 === 0 ? `${s / 60} 分钟` : `${s} 秒`),
    list: (items) => items.join("、"),
    facts: (f, kinds) => [
      `您在本次访问中说的话保存 ${zh.days(f.retention_days)}，之后删除。`,
      kinds.length
        ? `保存前，我会把识别出的${kinds}替换为代码。我可能会漏掉一些：请不要说出秘密信息。`
        : "保存前不会替换任何信息：请不要说出个人信息。",
      `安静 ${zh.seconds(f.idle_timeout_s)}后或按“新对话”时，本次访问结束。`,
      f.returning_users.second_factor
        ? `胸卡必须配合${zh.factor(f.returning_users.second_factor)}才能继续以前的对话。`
        : "仅凭胸卡即可继续以前的对话：请妥善保管。",
      "按“清除我说过的话”立即删除本次对话的记忆。",
    ],
    factor: (kind) => ({ pin: "PIN 码", badge: "签名胸卡", either: "PIN 码或签名胸卡" })[kind] || "第二重验证",
  };

  const TEXTS = { en, zh };

  // "auto" follows the browser's preferred languages; anything not Chinese reads English.
  function pickLanguage(setting, preferred) {
    if (setting === "en" || setting === "zh") return setting;
    for (const tag of preferred || []) {
      const lower = String(tag).toLowerCase();
      if (lower.startsWith("zh")) return "zh";
      if (lower.startsWith("en")) return "en";
    }
    return "en";
  }

  function privacyFacts(texts, facts) {
    const kinds = (facts.scrubbed_kinds || []).map((k) => (KINDS[texts.lang] || KINDS.en)[k] || k.toLowerCase());
    const rounded = { ...facts, idle_timeout_s: Math.round(facts.idle_timeout_s) };
    return texts.facts(rounded, kinds.length ? texts.list(kinds) : "");
  }

  window.KioskText = { TEXTS, pickLanguage, privacyFacts };
})();
