"""What is said of a place the person told us about: the note after a turn that the place shapes, and
the sentence said after a reply that named none of it, or instead of "sorry" (``place_note``)."""

NOTE = {
    "en": "Suggest one specific thing to do in or near {place}.",
    "zh": "推荐一个{place}或附近具体可以去的地方。",
}
NOTE_WHERE = {"en": "The place is {place}.", "zh": "地点是{place}。"}
NOTE_PACKING = {"en": "Pack for the weather in {place}.", "zh": "按{place}那边的天气来准备。"}
NOTE_CALL_TIME = {"en": "Mind the time difference with {place}.", "zh": "注意和{place}的时差。"}
NOTE_VENUE = {"en": "Suggest specific places in or near {place}.", "zh": "推荐{place}或附近具体的地方。"}
NOTE_ROUTE = {"en": "The journey ends in {place}.", "zh": "目的地是{place}。"}
# Said when the model gives no answer twice: the place named with the usual things to do there.
FALLBACK = {
    "en": (
        "Around {place}, I'd start with a walk to see the area, then a local museum or a good place to eat."
    ),
    "zh": "在{place}附近，可以先四处走走看看风景，再逛逛当地的博物馆，或者找家有名的小馆子尝尝。",
}
FALLBACK_VENUE = {
    "en": "Since you're in {place}, I'd pick somewhere close to {place}, so getting there and back is easy.",
    "zh": "你在{place}，就挑{place}附近的地方，来回都方便。",
}
FALLBACK_PACKING = {
    "en": "For {place}, check the forecast there a few days before and pack for its weather, with layers.",
    "zh": "去{place}的话，出发前几天查一下那边的天气预报，按当地的温度带衣服，多带一件外套。",
}
FALLBACK_ROUTE = {
    "en": "You're heading to {place}: check the route and the travel time to {place} before you set off.",
    "zh": "目的地是{place}，出发前查一下去{place}的路线和要花的时间。",
}
# A journey to a town the turn names ("a conference in Canberra… the easiest way to get there, when should I
# leave?", "下礼拜三要去西安…怎么走合适"): it starts where the person lives.
NOTE_FROM = {"en": "They will set off from {place}.", "zh": "出发地是{place}。"}
FALLBACK_FROM = {
    "en": "You'll be setting off from {place}: allow for getting from {place} to the station or the airport.",
    "zh": "你从{place}出发，记得把从{place}到车站或机场的时间也算进去。",
}
FALLBACK_CALL_TIME = {
    "en": "Check what time it is in {place} first: the time there may be hours off from yours.",
    "zh": "打之前先算一下{place}那边是几点，可能跟你这边有时差。",
}
# Something sent from where the person lives ("I've sold an old film camera lens … to a buyer in
# Manchester. How should I post it?"): the post office, the postage and the forms are those of their home.
NOTE_POST = {"en": "It is sent from {place}.", "zh": "从{place}寄出。"}
FALLBACK_POST = {
    "en": "Since it's going from {place}, check the postage and any forms needed for sending from {place}.",
    "zh": "从{place}寄出的话，先问清楚{place}寄过去的邮费和要填的单子。",
}
